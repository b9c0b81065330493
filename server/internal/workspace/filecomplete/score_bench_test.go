package filecomplete

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkListedSearch100k is the search of a 100,000-file listing (the
// keystrokes after a large workspace was listed).
func BenchmarkListedSearch100k(b *testing.B) {
	var files []string
	for d := 0; d < 400; d++ {
		for f := 0; f < 250; f++ {
			files = append(files, fmt.Sprintf("mod%03d/pkg%03d/file%03d.go", d/20, d, f))
		}
	}
	all, lower := withFolders(files)
	x := NewIndex()
	x.MaxAge = time.Hour
	x.roots["/r"] = &listing{paths: all, lower: lower, at: time.Now(), complete: true}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got, _ := x.Complete([]string{"/r"}, "pkg377file199", Options{}); len(got) == 0 || got[0].Path != "mod018/pkg377/file199.go" {
			b.Fatalf("%+v", got)
		}
	}
}
