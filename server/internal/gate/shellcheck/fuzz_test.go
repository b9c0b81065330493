package shellcheck

import (
	"testing"
)

// FuzzAnalyze checks that no input makes the analysis panic or return an
// invalid class, and that a line that does not parse is dangerous. The
// corpus in testdata/fuzz/FuzzAnalyze runs as a normal test.
func FuzzAnalyze(f *testing.F) {
	for _, c := range table {
		f.Add(c.cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		got := Analyze(cmd, testWS)
		if !got.Class.Valid() {
			t.Fatalf("%q: invalid class %d", cmd, got.Class)
		}
		if got.ParseError != "" && got.Class != Dangerous {
			t.Fatalf("%q: parse error %q but class %s", cmd, got.ParseError, got.Class)
		}
		for _, s := range got.Commands {
			if !s.Class.Valid() || s.Class > got.Class {
				t.Fatalf("%q: sub-command %+v inconsistent with %s", cmd, s, got.Class)
			}
		}
		if got.UseTool != nil && got.Class == Dangerous {
			t.Fatalf("%q: hint on a dangerous command", cmd)
		}
	})
}
