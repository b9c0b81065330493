package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
)

// Issue 31: no tool argument may hold a turn. Every built-in tool is
// called with generated worst cases for its own schema (long runs of one
// character class in each string, huge and odd numbers, long arrays, deep
// nesting, NUL bytes, invalid UTF-8, and raw arguments that are not an
// object at all), each under the tool runner's watchdog with a CPU budget
// far above what any of them needs; a call the watchdog stops, or one that
// does not return, fails the test.

// argBudget is the CPU time one generated call may use.
const argBudget = 10 * time.Second

// runBound is the wall time after which a call counts as hung.
const runBound = 2 * time.Minute

// fuzzLen is the length of each generated long run: well over every
// bound the tools put on an argument, small enough to keep the test quick.
const fuzzLen = 256 << 10

// stringRuns are the long strings put in each string argument, as JSON
// (already quoted): one character class each, and the shapes that are
// costly for paths, globs, regular expressions and diffs.
func stringRuns() map[string]string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	runs := map[string]string{
		"letters":      q(strings.Repeat("a", fuzzLen)),
		"spaces":       q(strings.Repeat(" ", fuzzLen)),
		"newlines":     q(strings.Repeat("\n", fuzzLen)),
		"lines":        q(strings.Repeat("x\n", fuzzLen/2)),
		"slashes":      q(strings.Repeat("/", fuzzLen)),
		"dots":         q(strings.Repeat(".", fuzzLen)),
		"parents":      q(strings.Repeat("../", fuzzLen/3)),
		"dot-slash":    q(strings.Repeat("./", fuzzLen/2)),
		"components":   q(strings.Repeat("a/", fuzzLen/2)),
		"stars":        q(strings.Repeat("*", fuzzLen)),
		"globstars":    q(strings.Repeat("**/", fuzzLen/3) + "x"),
		"star-a":       q(strings.Repeat("*a", fuzzLen/2) + "b"),
		"parens":       q(strings.Repeat("(", fuzzLen)),
		"groups":       q(strings.Repeat("(a*)*", fuzzLen/5)),
		"brackets":     q(strings.Repeat("[", fuzzLen)),
		"braces":       q(strings.Repeat("{a,", fuzzLen/3)),
		"backslashes":  q(strings.Repeat(`\`, fuzzLen)),
		"nul":          q(strings.Repeat("\x00", fuzzLen)),
		"multibyte":    q(strings.Repeat("é中", fuzzLen/5)),
		"digits":       q(strings.Repeat("9", fuzzLen)),
		"url":          q("http://" + strings.Repeat("a", fuzzLen) + ".example/"),
		"invalid-utf8": `"` + strings.Repeat("\xff\xfe", fuzzLen/2) + `"`,
		"escapes":      `"` + strings.Repeat(`\u00e9`, fuzzLen/6) + `"`,
	}
	return runs
}

// otherValues are put in non-string arguments (and in string ones, for
// the wrong type).
var otherValues = map[string]string{
	"huge-int":      "1" + strings.Repeat("0", 100000),
	"huge-exponent": "1e999999999",
	"max-int+1":     "9223372036854775808",
	"negative":      "-9223372036854775808",
	"fraction":      "1.5",
	"zero":          "0",
	"string-number": `"5"`,
	"true":          "true",
	"null":          "null",
	"object":        `{"a":1}`,
	"deep-array":    strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
	"deep-object":   strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000),
	"long-array":    "[" + strings.TrimSuffix(strings.Repeat(`"x",`, 200000), ",") + "]",
	"distinct-list": distinctList(100000),
}

func distinctList(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"option %d"`, i)
	}
	b.WriteByte(']')
	return b.String()
}

// rawCases are whole arguments that are not a usable object.
var rawCases = map[string]string{
	"empty":          "",
	"not-json":       "GARBAGE",
	"string":         `"x"`,
	"array":          "[]",
	"truncated":      `{"a":`,
	"nul":            "\x00",
	"invalid-utf8":   "\xff\xfe",
	"deep":           strings.Repeat("[", 200000),
	"many-keys":      manyKeys(100000),
	"duplicate-keys": "{" + strings.TrimSuffix(strings.Repeat(`"filePath":"a",`, 100000), ",") + "}",
}

func manyKeys(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteByte('}')
	return b.String()
}

type fuzzSchema struct {
	Properties map[string]struct {
		Type string `json:"type"`
	} `json:"properties"`
	Required []string `json:"required"`
}

// plain is a harmless valid value of a property type.
func plain(typ string) string {
	switch typ {
	case "integer", "number":
		return "1"
	case "boolean":
		return "false"
	case "array":
		return `["a"]`
	case "object":
		return "{}"
	}
	return `"a.txt"`
}

// argCases builds one tool's cases: every property takes every worst
// value in turn while the others hold plain ones.
func argCases(t *testing.T, tool Tool) map[string]string {
	var s fuzzSchema
	if err := json.Unmarshal(tool.Schema(), &s); err != nil {
		t.Fatalf("%s: schema: %v", tool.Name(), err)
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	cases := map[string]string{}
	for k, v := range rawCases {
		cases["raw "+k] = v
	}
	runs := stringRuns()
	for _, target := range names {
		values := map[string]string{}
		for k, v := range otherValues {
			values[k] = v
		}
		if s.Properties[target].Type == "string" || s.Properties[target].Type == "" {
			for k, v := range runs {
				values[k] = v
			}
		}
		for k, v := range values {
			var b strings.Builder
			b.WriteByte('{')
			for i, n := range names {
				if i > 0 {
					b.WriteByte(',')
				}
				val := plain(s.Properties[n].Type)
				if n == target {
					val = v
				}
				fmt.Fprintf(&b, "%q:%s", n, val)
			}
			b.WriteByte('}')
			cases[target+"="+k] = b.String()
		}
	}
	return cases
}

func TestToolArgumentWorstCases(t *testing.T) {
	if testing.Short() {
		t.Skip("a few thousand calls with MB arguments")
	}
	env, root := newEnv(t)
	// Nothing is written or run: every change and command needs an
	// approval no one can give.
	env.Settings.ConfirmChanges, env.Settings.ConfirmShell = true, true
	write(t, filepath.Join(root, "a.txt"), "hello\nworld\n")
	write(t, filepath.Join(root, "src", "main.go"), "package main\n\nfunc main() {}\n")
	var slow []string
	for _, tool := range Builtin() {
		cases := argCases(t, tool)
		keys := make([]string, 0, len(cases))
		for k := range cases {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			raw := cases[k]
			done := make(chan error, 1)
			go func() {
				_, err := watchdog.Do(context.Background(), tool.Name(), len(raw), argBudget, func(ctx context.Context) (Result, error) {
					return tool.Run(ctx, env, json.RawMessage(raw))
				})
				done <- err
			}()
			start := time.Now()
			select {
			case err := <-done:
				if d := time.Since(start); d > time.Second {
					slow = append(slow, fmt.Sprintf("%s %s took %s", tool.Name(), k, d.Round(time.Millisecond)))
				}
				var e *watchdog.Exceeded
				if errors.As(err, &e) {
					t.Errorf("%s %s: %v", tool.Name(), k, err)
				}
			case <-time.After(runBound):
				t.Fatalf("%s %s: no answer within %s", tool.Name(), k, runBound)
			}
		}
	}
	// No file was written (create_directory may have made folders).
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != filepath.Join(root, "a.txt") && p != filepath.Join(root, "src", "main.go") {
			t.Errorf("a generated call wrote %s", p)
		}
		return nil
	})
	if readBack(t, filepath.Join(root, "a.txt")) != "hello\nworld\n" {
		t.Error("a generated call changed a.txt")
	}
	for _, s := range slow {
		t.Log(s)
	}
}
