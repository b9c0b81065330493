package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPathBounds: an oversized path is refused at once with a message that
// says why and does not echo the whole input.
func TestPathBounds(t *testing.T) {
	s := New([]string{t.TempDir()})
	for _, tt := range []struct {
		name, path, want string
	}{
		{"60,000 components", strings.Repeat("a/", 60000), "at most 4096"},
		{"one long name", strings.Repeat("x", MaxPathBytes+1), "at most 4096"},
		{"too many components", strings.Repeat("./", MaxPathComponents+1), "at most 512 are allowed"},
		{"too many backslash components", strings.Repeat(`a\`, MaxPathComponents+1), "at most 512 are allowed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := s.Resolve(tt.path)
			var esc *EscapeError
			if !errors.As(err, &esc) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v; want an EscapeError saying %q", err, tt.want)
			}
			if len(err.Error()) > 1000 {
				t.Fatalf("the error echoes %d bytes of input", len(err.Error()))
			}
			if d := time.Since(start); d > 100*time.Millisecond {
				t.Fatalf("refusing took %v", d)
			}
		})
	}
}

// TestLongPathResolvesInLinearTime: the longest allowed path, missing
// from its first component, resolves fast; so does one whose existing
// prefix is deep.
func TestLongPathResolvesInLinearTime(t *testing.T) {
	root := t.TempDir()
	s := New([]string{root})
	long := strings.Repeat("a/", MaxPathComponents-1) + "f"
	start := time.Now()
	p, err := s.Resolve(long)
	if err != nil || p != filepath.Join(root, filepath.FromSlash(long)) {
		t.Fatalf("Resolve: %q %v", p, err)
	}
	deep := filepath.Join(root, filepath.FromSlash(strings.Repeat("d/", 100)))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	rel := strings.Repeat("d/", 100) + strings.Repeat("m/", 200) + "f"
	if _, err := s.ResolveForWrite(rel); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Fatalf("resolving two long paths took %v", d)
	}
}

// TestDanglingLinkMidPathStillRefused: the forward walk still follows a
// dangling link at the end of the existing prefix.
func TestDanglingLinkMidPathStillRefused(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "missing"), filepath.Join(root, "link")); err != nil {
		t.Skip(err)
	}
	s := New([]string{root})
	if _, err := s.ResolveForWrite("link/x/y.txt"); err == nil {
		t.Fatal("a write through a dangling link to outside must be refused")
	}
}
