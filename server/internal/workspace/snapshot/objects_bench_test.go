package snapshot

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// The object store is written by hand rather than through go-git's
// storage because snapshot time is dominated by writing blobs. These
// benchmarks write the same 2,000 source-like blobs (about 4 KB each) both
// ways, as a first snapshot does:
//
//	go test -run - -bench ObjectWrites ./server/internal/workspace/snapshot
func benchBlobs() [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("func return if else for range var const type struct interface package import map string")
	out := make([][]byte, 2000)
	for i := range out {
		var b strings.Builder
		fmt.Fprintf(&b, "// file %d\n", i)
		for b.Len() < 4096 {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(" \n"[rng.IntN(2)])
		}
		out[i] = []byte(b.String())
	}
	return out
}

func BenchmarkObjectWritesGoGit(b *testing.B) {
	blobs := benchBlobs()
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		if _, err := git.PlainInit(dir, true); err != nil {
			b.Fatal(err)
		}
		st := filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRUDefault())
		for _, data := range blobs {
			obj := st.NewEncodedObject()
			obj.SetType(plumbing.BlobObject)
			w, _ := obj.Writer()
			w.Write(data)
			w.Close()
			if _, err := st.SetEncodedObject(obj); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkObjectWritesLoose(b *testing.B) { benchOwn(b, false) }
func BenchmarkObjectWritesPack(b *testing.B)  { benchOwn(b, true) }

func benchOwn(b *testing.B, pack bool) {
	blobs := benchBlobs()
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		if _, err := git.PlainInit(dir, true); err != nil {
			b.Fatal(err)
		}
		o, err := openObjectStore(filepath.Join(dir, "objects"))
		if err != nil {
			b.Fatal(err)
		}
		if pack {
			o.beginPack()
		}
		for _, data := range blobs {
			if _, err := o.put(plumbing.BlobObject, data); err != nil {
				b.Fatal(err)
			}
		}
		if pack {
			if _, err := o.endPack(true); err != nil {
				b.Fatal(err)
			}
		}
	}
}
