package mcpclient

import (
	"reflect"
	"testing"
)

// A prompt command's arguments: name=value pairs wherever they are, plain
// values fill the declared arguments not yet named, in order; extra plain
// values are dropped.
func TestPromptArgs(t *testing.T) {
	for _, c := range []struct {
		declared []string
		args     string
		want     map[string]string
	}{
		{[]string{"lang", "file*"}, "go main.go", map[string]string{"lang": "go", "file": "main.go"}},
		{[]string{"lang", "file"}, "file=a.go go", map[string]string{"file": "a.go", "lang": "go"}},
		{[]string{"lang"}, "go extra", map[string]string{"lang": "go"}},
		{nil, "=x", map[string]string{}},
		{[]string{"a"}, "", map[string]string{}},
	} {
		if got := PromptArgs(c.declared, c.args); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PromptArgs(%q, %q) = %v, want %v", c.declared, c.args, got, c.want)
		}
	}
}
