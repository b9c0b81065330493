package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails the test when fn has not returned in a few seconds: a
// blocking open of a FIFO never returns, so the test would hang instead.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return within 5 s (it blocked)", what)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs on Windows")
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
}

func wantKind(t *testing.T, err error, kind string) {
	t.Helper()
	var ke *KindError
	if !errors.As(err, &ke) || !errors.Is(err, ErrNotRegular) {
		t.Fatalf("want a *KindError, got %v", err)
	}
	if !strings.Contains(err.Error(), kind) {
		t.Fatalf("error %q does not name %q", err, kind)
	}
}

func TestFIFOIsRefusedWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	mkfifo(t, p)
	var err error
	within(t, "ReadFile of a FIFO", func() { _, err = ReadFile(p, 1<<20) })
	wantKind(t, err, "a named pipe (FIFO)")
	within(t, "ReadEntry of a FIFO", func() { _, err = ReadEntry(p, 1<<20) })
	wantKind(t, err, "a named pipe (FIFO)")
	within(t, "CheckWritable of a FIFO", func() { err = CheckWritable(p) })
	wantKind(t, err, "a named pipe (FIFO)")
}

// TestDescriptorIsChecked skips the stat before the open (as a swap
// between the two would): the non-blocking open returns and the fstat of
// the descriptor refuses the FIFO.
func TestDescriptorIsChecked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	mkfifo(t, p)
	var err error
	within(t, "openChecked of a FIFO", func() { _, err = openChecked(p, Options{}) })
	wantKind(t, err, "a named pipe (FIFO)")
}

func TestCharDeviceIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no device nodes on Windows")
	}
	for _, dev := range []string{"/dev/zero", "/dev/urandom", "/dev/null"} {
		var err error
		within(t, "ReadFile of "+dev, func() { _, err = ReadFile(dev, 1<<20) })
		wantKind(t, err, "a character device")
		within(t, "openChecked of "+dev, func() { _, err = openChecked(dev, Options{}) })
		wantKind(t, err, "a character device")
	}
	// Through a symbolic link: followed by ReadFile, refused as a link
	// by ReadEntry.
	link := filepath.Join(t.TempDir(), "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(link, 1<<20)
	wantKind(t, err, "a character device")
	_, err = ReadEntry(link, 1<<20)
	wantKind(t, err, "a symbolic link")
}

func TestSocketIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix sockets in the file system here")
	}
	dir, err := os.MkdirTemp("", "sock") // short: socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "s")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(p, 1<<20)
	wantKind(t, err, "a socket")
}

func TestRegularFileAndBounds(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(p, 6)
	if err != nil || string(b) != "hello\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	_, err = ReadFile(p, 5)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 6 || tl.Limit != 5 {
		t.Fatalf("want TooLargeError{6, 5}, got %v", err)
	}
	if err := CheckWritable(p); err != nil {
		t.Fatalf("CheckWritable(regular) = %v", err)
	}
	if err := CheckWritable(filepath.Join(dir, "new")); err != nil {
		t.Fatalf("CheckWritable(missing) = %v", err)
	}
	if _, err := ReadFile(dir, 10); !errors.Is(err, syscall.EISDIR) && runtime.GOOS != "windows" {
		t.Fatalf("ReadFile(dir) = %v, want EISDIR", err)
	}
	f, fi, err := Open(dir, Options{Dir: true})
	if err != nil || !fi.IsDir() {
		t.Fatalf("Open(dir, Dir) = %v, %v", fi, err)
	}
	f.Close()
	if _, err := ReadFile(filepath.Join(dir, "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestGrowthPastTheLimit: a file that grows after its fstat is read only
// to limit+1 bytes and refused, not read on.
func TestGrowthPastTheLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadAll(f, fi.Size(), 10)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 11 {
		t.Fatalf("want TooLargeError after 11 bytes, got %v", err)
	}
}

func TestSpecial(t *testing.T) {
	for m, want := range map[fs.FileMode]bool{
		0: false, fs.ModeDir: false, fs.ModeSymlink: false,
		fs.ModeNamedPipe: true, fs.ModeSocket: true, fs.ModeDevice | fs.ModeCharDevice: true,
		fs.ModeDevice: true, fs.ModeIrregular: true,
	} {
		if got := Special(m); got != want {
			t.Errorf("Special(%v) = %v, want %v", m, got, want)
		}
	}
}
