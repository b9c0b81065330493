package lazyload

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fileStamp fingerprints one file by size and modification time, as
// customcmd.Stamp does for a folder.
func fileStamp(path string) func() string {
	return func() string {
		fi, err := os.Stat(path)
		if err != nil {
			return "-"
		}
		return strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
}

func readFile(path string, loads *atomic.Int32) func() string {
	return func() string {
		loads.Add(1)
		b, err := os.ReadFile(path)
		if err != nil {
			return "missing"
		}
		return string(b)
	}
}

func TestLoadsOnceUntilReset(t *testing.T) {
	var loads, kept atomic.Int32
	l := New(Options[int]{Load: func() int { return int(loads.Add(1)) }, Kept: func(int) { kept.Add(1) }})
	if loads.Load() != 0 {
		t.Fatal("New loaded")
	}
	for i := 0; i < 3; i++ {
		if v := l.Get(); v != 1 {
			t.Fatalf("Get %d = %d, want the first load's 1", i, v)
		}
	}
	l.Reset()
	if v := l.Get(); v != 2 {
		t.Fatalf("after Reset Get = %d, want a new load (2)", v)
	}
	if loads.Load() != 2 || kept.Load() != 2 {
		t.Fatalf("loads %d kept %d, want 2 and 2", loads.Load(), kept.Load())
	}
}

// A file written, edited and removed between calls is seen by the next
// Get; an unchanged file is not read again.
func TestReloadsWhenTheFilesChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cmd.md")
	var loads atomic.Int32
	var reported []string
	l := New(Options[string]{Load: readFile(path, &loads), Stamp: fileStamp(path), Kept: func(v string) { reported = append(reported, v) }})

	if v := l.Get(); v != "missing" {
		t.Fatalf("no file: %q", v)
	}
	if err := os.WriteFile(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v := l.Get(); v != "one" {
		t.Fatalf("after writing: %q, want one", v)
	}
	if v := l.Get(); v != "one" || loads.Load() != 2 {
		t.Fatalf("unchanged file: %q after %d loads, want one after 2", v, loads.Load())
	}
	// A longer content changes the size even where the clock is coarse.
	if err := os.WriteFile(path, []byte("two, edited"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v := l.Get(); v != "two, edited" {
		t.Fatalf("after editing: %q", v)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if v := l.Get(); v != "missing" {
		t.Fatalf("after removing: %q", v)
	}
	want := []string{"missing", "one", "two, edited", "missing"}
	if len(reported) != len(want) {
		t.Fatalf("kept %q, want %q", reported, want)
	}
	for i := range want {
		if reported[i] != want[i] {
			t.Fatalf("kept %q, want %q", reported, want)
		}
	}
}

// Many first callers at once: one load, one Kept, every caller gets its
// value. Run with -race.
func TestConcurrentCallersShareOneLoad(t *testing.T) {
	var loads, kept atomic.Int32
	release := make(chan struct{})
	l := New(Options[*int]{
		Load: func() *int {
			<-release // hold the load until every caller waits on it
			n := int(loads.Add(1))
			return &n
		},
		Kept: func(*int) { kept.Add(1) },
	})
	const callers = 32
	got := make([]*int, callers)
	var wg sync.WaitGroup
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = l.Get()
		}()
	}
	// Callers that arrive after the load find its value; either way there
	// is one load.
	close(release)
	wg.Wait()
	if loads.Load() != 1 || kept.Load() != 1 {
		t.Fatalf("loads %d kept %d, want 1 and 1", loads.Load(), kept.Load())
	}
	for i, p := range got {
		if p != got[0] {
			t.Fatalf("caller %d got another value", i)
		}
	}
}

// Concurrent callers while the files keep changing: every Get returns a
// content the file had, the loader never keeps two values for one stamp
// and the race detector sees no unguarded access.
func TestConcurrentCallersWhileFilesChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("x0"), 0o600); err != nil {
		t.Fatal(err)
	}
	var loads atomic.Int32
	l := New(Options[string]{Load: readFile(path, &loads), Stamp: fileStamp(path)})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if v := l.Get(); v == "" {
					t.Error("empty value")
					return
				}
			}
		}()
	}
	// Each content has its own size (the clock may not tell two writes
	// apart) and lands by rename, so no reader sees a half-written file.
	tmp := path + ".tmp"
	for i := 1; i <= 20; i++ {
		if err := os.WriteFile(tmp, []byte(strings.Repeat("x", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if v := l.Get(); v != strings.Repeat("x", 20) {
		t.Fatalf("after the last write Get = %q, want the last content", v)
	}
}

// A Reset while a load runs: the loading caller gets its value, but it is
// not kept (nor reported), and the next Get loads again.
func TestResetDuringLoadIsNotKept(t *testing.T) {
	var loads atomic.Int32
	var kept []int
	inLoad, resume := make(chan struct{}), make(chan struct{})
	l := New(Options[int]{
		Load: func() int {
			n := int(loads.Add(1))
			if n == 1 {
				close(inLoad)
				<-resume
			}
			return n
		},
		Kept: func(v int) { kept = append(kept, v) },
	})
	done := make(chan int)
	go func() { done <- l.Get() }()
	<-inLoad
	l.Reset()
	close(resume)
	if v := <-done; v != 1 {
		t.Fatalf("the loading caller got %d, want its own load (1)", v)
	}
	if v := l.Get(); v != 2 {
		t.Fatalf("after the overtaken load Get = %d, want a new load (2)", v)
	}
	if len(kept) != 1 || kept[0] != 2 {
		t.Fatalf("kept %v, want only [2]", kept)
	}
}

// Kept may call Get (it runs outside the locks).
func TestKeptMayCallGet(t *testing.T) {
	var l *Loader[int]
	seen := -1
	l = New(Options[int]{Load: func() int { return 7 }, Kept: func(int) { seen = l.Get() }})
	if v := l.Get(); v != 7 || seen != 7 {
		t.Fatalf("Get %d, Kept saw %d; want 7 and 7", v, seen)
	}
}

func TestNewWithoutLoadPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	New(Options[int]{})
}
