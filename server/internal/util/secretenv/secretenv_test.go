//go:build !windows

package secretenv

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestHeldVarsAreWhatTheScrubRemovedOrChanged(t *testing.T) {
	environ := []string{"PATH=/bin", "GOVIBE_API_KEY=sk-1", "HTTPS_PROXY=http://u:p@proxy:3128", "A=b=c"}
	kept := []string{"PATH=/bin", "HTTPS_PROXY=http://proxy:3128", "A=b=c"}
	held := heldVars(environ, kept)
	if len(held) != 2 || held["GOVIBE_API_KEY"] != "sk-1" || held["HTTPS_PROXY"] != "http://u:p@proxy:3128" {
		t.Fatalf("held %v", held)
	}
}

// TestRestoreReadsTheDescriptor: the re-executed image gets the variables
// back into its own environment, and the descriptor is closed.
func TestRestoreReadsTheDescriptor(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(`{"HELD_TEST_TOKEN":"v1","HELD_TEST_PROXY":"http://u:p@h"}`)
	w.Close()
	// Hand over a duplicate: restore closes it, r is closed here.
	fd, err := syscall.Dup(int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Setenv(fdVar, strconv.Itoa(fd))
	t.Setenv("HELD_TEST_TOKEN", "")
	t.Setenv("HELD_TEST_PROXY", "")
	if err := Hide(); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("HELD_TEST_TOKEN") != "v1" || os.Getenv("HELD_TEST_PROXY") != "http://u:p@h" || os.Getenv(fdVar) != "" {
		t.Fatalf("not restored: %q %q %q", os.Getenv("HELD_TEST_TOKEN"), os.Getenv("HELD_TEST_PROXY"), os.Getenv(fdVar))
	}
}

func TestRestoreRefusesABadDescriptor(t *testing.T) {
	for _, v := range []string{"x", "1", "-4"} {
		t.Setenv(fdVar, v)
		if err := Hide(); err == nil || !strings.Contains(err.Error(), "not a descriptor") {
			t.Fatalf("%q: %v", v, err)
		}
	}
}
