package mcpclient

import (
	"reflect"
	"strings"
	"testing"
)

// A prompt command's arguments: name=value pairs wherever they are, plain
// values fill the declared arguments not yet named, in order; extra plain
// values are dropped; quoted values arrive whole, without their quotes;
// nothing is expanded.
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
		{[]string{"city", "days"}, `city="New, York" 3`, map[string]string{"city": "New, York", "days": "3"}},
		{[]string{"q"}, `'two words' "x"`, map[string]string{"q": "two words"}},
		{[]string{"q", "r"}, `"it's" a\ b`, map[string]string{"q": "it's", "r": "a b"}},
		{[]string{"price"}, `price=$5 $(rm -rf x)`, map[string]string{"price": "$5"}},
		{[]string{"cmd"}, `"$(whoami)"`, map[string]string{"cmd": `"$(whoami)"`}},
	} {
		got, err := PromptArgs(c.declared, c.args)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("PromptArgs(%q, %q) = %v %v, want %v", c.declared, c.args, got, err, c.want)
		}
	}
	if _, err := PromptArgs([]string{"city"}, `city="New, York`); err == nil || !strings.Contains(err.Error(), "cannot read the arguments") {
		t.Errorf("an unclosed quote: %v", err)
	}
}
