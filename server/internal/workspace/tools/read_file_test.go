package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestReadFile(t *testing.T) {
	env, root := newEnv(t)
	write(t, filepath.Join(root, "src", "main.go"), "package main\n\nfunc main() {}\n")
	write(t, filepath.Join(root, "crlf.txt"), "\uFEFFone\r\ntwo\r\n")
	write(t, filepath.Join(root, "empty.txt"), "")
	write(t, filepath.Join(root, "bad.txt"), "ok\nbad \xff\xfe here\n")
	write(t, filepath.Join(root, "img.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	var big strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	write(t, filepath.Join(root, "big.txt"), big.String())
	write(t, filepath.Join(root, "wide.txt"), strings.Repeat(strings.Repeat("x", 1000)+"\n", 600))
	write(t, filepath.Join(root, "minified.js"), strings.Repeat("y", 300<<10))
	tool := ReadFile()

	cases := []struct {
		name string
		args map[string]any
		ok   bool
		want []string
		not  []string
	}{
		{"numbered", map[string]any{"filePath": "src/main.go"}, true, []string{"File: src/main.go (3 lines)", "1\tpackage main", "3\tfunc main() {}"}, []string{"Showed"}},
		{"range", map[string]any{"filePath": "big.txt", "startLine": 10, "endLine": 12}, true, []string{"10\tline 10", "12\tline 12", "startLine=13"}, []string{"line 13\n", "9\tline 9"}},
		{"paging at 2000 lines", map[string]any{"filePath": "big.txt"}, true, []string{"2000\tline 2000", "Showed lines 1–2000 of 5000", "startLine=2001"}, []string{"line 2001"}},
		{"paging at 256KB", map[string]any{"filePath": "wide.txt"}, true, []string{"Showed lines 1–261 of 600", "startLine=262"}, nil},
		{"one giant line", map[string]any{"filePath": "minified.js"}, true, []string{"Line 1 is longer than 256.0 KB and was cut"}, nil},
		{"crlf and bom stripped", map[string]any{"filePath": "crlf.txt"}, true, []string{"1\tone\n2\ttwo"}, []string{"\r", "\uFEFF"}},
		{"empty", map[string]any{"filePath": "empty.txt"}, true, []string{"empty, 0 lines"}, nil},
		{"invalid utf8", map[string]any{"filePath": "bad.txt"}, true, []string{"2\tbad \uFFFD here", "Line 2", "not valid UTF-8"}, nil},
		{"folder lists", map[string]any{"filePath": "src"}, true, []string{"is a folder", "main.go"}, nil},
		{"binary refused", map[string]any{"filePath": "img.png"}, false, []string{"binary file", "image/png", "bytes"}, nil},
		{"missing with suggestion", map[string]any{"filePath": "src/mian.go"}, false, []string{"file not found: src/mian.go", "Did you mean: src/main.go"}, nil},
		{"missing elsewhere", map[string]any{"filePath": "main.go"}, false, []string{"Did you mean: src/main.go"}, nil},
		{"past the end", map[string]any{"filePath": "src/main.go", "startLine": 9}, false, []string{"past the end", "3 lines"}, nil},
		{"end before start", map[string]any{"filePath": "big.txt", "startLine": 9, "endLine": 3}, false, []string{"before startLine"}, nil},
		{"escape", map[string]any{"filePath": "../../etc/passwd"}, false, []string{"refused", root}, nil},
		{"missing arg", map[string]any{}, false, []string{"missing required argument(s): filePath"}, nil},
		{"wrong type", map[string]any{"filePath": "big.txt", "startLine": "ten"}, false, []string{`"startLine" must be an integer`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, tool, env, tc.args)
			if tc.ok {
				wantOK(t, r, tc.want...)
			} else {
				wantFail(t, r, tc.want...)
			}
			for _, n := range tc.not {
				if strings.Contains(r.Output, n) {
					t.Fatalf("output should not contain %q:\n%s", n, r.Output)
				}
			}
		})
	}
}

func TestReadFileTooLarge(t *testing.T) {
	env, root := newEnv(t)
	env.Settings.MaxFileSizeBytes = 1000
	write(t, filepath.Join(root, "large.log"), strings.Repeat("z\n", 1000))
	wantFail(t, call(t, ReadFile(), env, map[string]any{"filePath": "large.log"}), "2.0 KB", "limit", "grep_search")
}

func TestReadFileDirtyBuffer(t *testing.T) {
	env, root := newEnv(t)
	p := filepath.Join(root, "a.go")
	write(t, p, "on disk\n")
	env.Host = &fakeHost{dirty: map[string]string{p: "unsaved text\nsecond\n"}}
	r := call(t, ReadFile(), env, map[string]any{"filePath": "a.go"})
	wantOK(t, r, "unsaved changes in the editor", "1\tunsaved text", "2\tsecond")
	if strings.Contains(r.Output, "\ton disk") {
		t.Fatal("disk content shown instead of the buffer")
	}
}

func TestParallelReadsAreSafe(t *testing.T) {
	env, root := newEnv(t)
	for i := range 20 {
		write(t, filepath.Join(root, fmt.Sprintf("f%d.txt", i)), strings.Repeat(fmt.Sprintf("file %d\n", i), 50))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for w := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				r := call(t, ReadFile(), env, map[string]any{"filePath": fmt.Sprintf("f%d.txt", (i+w)%20)})
				if !r.OK || !strings.Contains(r.Output, fmt.Sprintf("file %d", (i+w)%20)) {
					errs <- r.Output
				}
				call(t, GrepSearch(), env, map[string]any{"pattern": "file 1"})
				env.Files.ResetTurn()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}
