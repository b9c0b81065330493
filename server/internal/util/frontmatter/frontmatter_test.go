package frontmatter

import (
	"strings"
	"testing"
)

type fields struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tools       []string `yaml:"tools"`
}

// TestDecodeErrorsNameTheLineToFix: every malformed header is reported
// at the file line the user must change (the opening '---' is line 1),
// whatever line yaml.v3 stopped on, and line numbers inside the message
// count the same way.
func TestDecodeErrorsNameTheLineToFix(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		msg  string
	}{
		{"---\nname: x\ndescription: [unclosed\n---\n", 3, "did not find expected"},
		{"---\ndescription: [unclosed\nname: x\n---\n", 2, ""},
		{"---\nname: x\ndescription: a: b\n---\n", 3, "mapping values"},
		{"---\nname: x\n\tdescription: y\n---\n", 3, "tab"},
		{"---\nname: [a, b]\n---\n", 2, "cannot unmarshal"},
		{"---\nname: x\nbogus: 1\n---\n", 3, "field bogus not found"},
		{"---\nname: x\nname: y\n---\n", 3, `mapping key "name" already defined at line 2`},
		{"---\nname: \"abc\ndescription: d\n---\n", 2, "end of stream"},
		{"---\nname: x\ndescription: 'unclosed\n---\n", 3, "end of stream"},
		{"---\nname: x\ndescription: \"abc\n\n\n---\n", 3, "end of stream"},
		{"---\nname: x\ntools:\n  - a\n  - b\ndescription: [oops\n---\n", 6, ""},
		{"---\nname: x\ntools:\n  - a\n - b\n---\n", 5, "did not find expected key"},
		{"---\nname: x\ntools: {a: 1}\n---\n", 3, "cannot unmarshal"},
		{"---\n# comment\n\nname: x\ndescription: {\n---\n", 5, ""},
		{"---\n# comment\n\nname: x\ndescription: {\n\n\n---\n", 5, ""},
		{"---\nname: x\ndescription: ok\n  bad: indent\n---\n", 4, "mapping values"},
		{"---\nname: x\n- item\n---\n", 3, ""},
		{"---\nname: x\ndescription: a\n@bad\n---\n", 4, "cannot start any token"},
		{"---\nname: x\ndescription: [a,\n  b\n---\n", 3, ""},
		{"---\ndescription: it's fine\ntools: [a\n---\n", 3, ""},
	} {
		d, err := Split([]byte(c.src), true)
		if err != nil {
			t.Fatalf("%q: split: %v", c.src, err)
		}
		var f fields
		err = d.Decode(&f, true)
		fe, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: %v, want a frontmatter error", c.src, err)
			continue
		}
		if fe.Line != c.line || !strings.Contains(fe.Message, c.msg) || !strings.HasPrefix(fe.Message, "invalid frontmatter: ") {
			t.Errorf("%q: line %d %q, want line %d with %q", c.src, fe.Line, fe.Message, c.line, c.msg)
		}
	}
}

// TestSplit: the header and body, their lines, and the errors of a file
// that opens a header and never closes it or has none where one is due.
func TestSplit(t *testing.T) {
	d, err := Split([]byte("\xef\xbb\xbf---\r\nname: x\r\n---\r\nbody\r\n"), true)
	if err != nil || string(d.Head) != "name: x\n" || d.Body != "body\n" || d.BodyLine != 4 {
		t.Fatalf("%+v %v", d, err)
	}
	if d.FieldLine("name") != 2 || d.FieldLine("missing") != 1 {
		t.Fatalf("field lines %d %d", d.FieldLine("name"), d.FieldLine("missing"))
	}
	if d, err = Split([]byte("---\n---\nbody\n"), true); err != nil || len(d.Head) != 0 || d.Body != "body\n" || d.BodyLine != 3 {
		t.Fatalf("empty header: %+v %v", d, err)
	}
	if d, err = Split([]byte("plain\n"), false); err != nil || d.Head != nil || d.Body != "plain\n" {
		t.Fatalf("optional header: %+v %v", d, err)
	}
	for src, want := range map[string]string{"plain\n": "missing YAML frontmatter", "---\nname: x\nbody\n": "never closed"} {
		_, err := Split([]byte(src), true)
		if fe, ok := err.(*Error); !ok || fe.Line != 1 || !strings.Contains(fe.Message, want) {
			t.Errorf("%q: %v, want line 1 %q", src, err, want)
		}
	}
}

// DecodeAsWritten reads a header as the tools it comes from do: Claude
// Code's own `argument-hint: [pr-number] [priority] [assignee]` (not YAML
// by itself) is its text; valid YAML keeps its meaning; a multi-line
// construct left open is still an error with its line.
func TestLenientDecodeTakesPlainValues(t *testing.T) {
	var m map[string]any
	d, _ := Split([]byte("---\nargument-hint: [pr-number] [priority] [assignee]\ndescription: Review code: find bugs\ntools: [a, b]\nmodel: haiku\n---\nbody\n"), true)
	if err := d.DecodeAsWritten(&m); err != nil {
		t.Fatal(err)
	}
	if m["argument-hint"] != "[pr-number] [priority] [assignee]" || m["description"] != "Review code: find bugs" || len(m["tools"].([]any)) != 2 || m["model"] != "haiku" {
		t.Fatalf("%#v", m)
	}
	if err := d.Decode(&m, false); err == nil {
		t.Fatal("plain decoding must still refuse it")
	}
	d, _ = Split([]byte("---\nname: x\ndescription: [a,\n  b\n---\n"), true)
	if fe, ok := d.DecodeAsWritten(&m).(*Error); !ok || fe.Line != 3 {
		t.Fatalf("open flow sequence: %v", fe)
	}
}
