package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// gen builds a deterministic synthetic workspace.
type gen struct {
	root    string
	rng     *rand.Rand
	tracked []string // relative paths of files a snapshot stores
	total   int
	bytes   int64
}

func newGen(root string) *gen { return &gen{root: root, rng: rand.New(rand.NewPCG(1, 2))} }

var words = strings.Fields(`func return if else for range var const type struct interface package import
	map string int error nil true false make append len cap defer go select case default switch break
	continue chan the a to of and in is for on with as by value result config client server request
	response handler context logger buffer index count total name path file data items user session`)

// text makes source-like text of about n bytes; compresses like real code.
func (g *gen) text(n int) []byte {
	b := make([]byte, 0, n+64)
	indent := 0
	for len(b) < n {
		b = append(b, strings.Repeat("\t", indent)...)
		w := 3 + g.rng.IntN(9)
		for i := 0; i < w; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, words[g.rng.IntN(len(words))]...)
			if g.rng.IntN(6) == 0 {
				b = append(b, fmt.Sprint(g.rng.IntN(1000))...)
			}
		}
		b = append(b, '\n')
		indent = max(0, min(4, indent+g.rng.IntN(3)-1))
	}
	return b[:n]
}

func (g *gen) write(rel string, data []byte, tracked bool) error {
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	g.total++
	g.bytes += int64(len(data))
	if tracked {
		g.tracked = append(g.tracked, rel)
	}
	return nil
}

// build writes 60% of the files (and bytes) as source trees and the rest
// in node_modules, ignored by the root .gitignore. About 3% of tracked
// files are incompressible binary assets.
func (g *gen) build(nFiles int, totalBytes int64) error {
	if err := g.write(".gitignore", []byte("node_modules/\n*.log\n"), true); err != nil {
		return err
	}
	nTracked := nFiles * 6 / 10
	avg := int(totalBytes / int64(nFiles))
	size := func() int { // skewed: many small files, a few large ones
		f := g.rng.ExpFloat64()
		return max(16, min(int(f*float64(avg)), 40*avg))
	}
	for i := 1; i < nTracked; i++ {
		dir := fmt.Sprintf("src/mod%02d/pkg%03d", i%23, (i/23)%37)
		if i%29 == 0 {
			data := make([]byte, size())
			for j := range data {
				data[j] = byte(g.rng.Uint32())
			}
			if err := g.write(fmt.Sprintf("assets/img%05d.png", i), data, true); err != nil {
				return err
			}
			continue
		}
		if err := g.write(fmt.Sprintf("%s/file%05d.go", dir, i), g.text(size()), true); err != nil {
			return err
		}
	}
	for i := nTracked; i < nFiles; i++ {
		rel := fmt.Sprintf("node_modules/dep%03d/lib/m%05d.js", i%150, i)
		if err := g.write(rel, g.text(size()), false); err != nil {
			return err
		}
	}
	return nil
}

// changeTracked rewrites n distinct tracked source files.
func (g *gen) changeTracked(n, round int) error {
	picked := map[string]bool{}
	for k := 0; len(picked) < n; k++ {
		rel := g.tracked[(round*1000+k)*7919%len(g.tracked)]
		if picked[rel] || !strings.HasSuffix(rel, ".go") {
			continue
		}
		picked[rel] = true
		p := filepath.Join(g.root, filepath.FromSlash(rel))
		old, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, append(old, fmt.Sprintf("// change %d\n", round)...), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appendLine makes one small edit and returns the new size of the file.
func (g *gen) appendLine(i int) (int64, error) {
	rel := g.tracked[1+(i*104729)%(len(g.tracked)-1)]
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	_, err = fmt.Fprintf(f, "// edit %d\n", i)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
