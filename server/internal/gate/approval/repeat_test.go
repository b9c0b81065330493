package approval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkWorkspaceFingerprint reports the fingerprint's cost as a
// ratio to a bare directory walk (no stat) of the same tree, measured in
// the same run: the walk is the floor any change detection pays.
func BenchmarkWorkspaceFingerprint(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 2000; i++ {
		p := filepath.Join(dir, fmt.Sprintf("d%02d", i%40), fmt.Sprintf("f%04d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	walk := func() {
		filepath.WalkDir(dir, func(string, fs.DirEntry, error) error { return nil })
	}
	var ref, fp time.Duration
	for b.Loop() {
		t0 := time.Now()
		walk()
		t1 := time.Now()
		workspaceFingerprint([]string{dir})
		ref, fp = ref+t1.Sub(t0), fp+time.Since(t1)
	}
	b.ReportMetric(float64(fp)/float64(ref), "x-walk")
	b.ReportMetric(float64(fp.Microseconds())/float64(b.N), "µs/fingerprint")
}
