package snapshot

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/zlib"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// packWriter writes a version 2 packfile without deltas, plus its index.
// Objects are compressed at zlib.BestSpeed; packed entries can later be
// copied into a new pack byte for byte, which keeps repacking cheap.
//
// The object count is not known in advance when a scan streams new objects
// into the pack, so finish patches the header and computes the checksum by
// reading the file back (sequential, from the page cache).
//
// Concurrency: addRaw and add are safe for concurrent use (hashing workers
// compress in parallel and append under mu); finish and abort are called
// once, after all adds.
type packWriter struct {
	dir string // objects/pack

	mu     sync.Mutex
	f      *os.File // created by the first entry
	err    error    // creating it failed
	w      *bufio.Writer
	offset int64
	count  uint32
	idx    *idxfile.Writer
	// index is the finished pack's index, set by finish.
	index *idxfile.MemoryIndex
}

func newPackWriter(packDir string) *packWriter {
	return &packWriter{dir: packDir, idx: new(idxfile.Writer)}
}

// create makes the temporary pack file and writes its header. Called with
// mu held.
func (pw *packWriter) create() error {
	if pw.f != nil || pw.err != nil {
		return pw.err
	}
	if err := os.MkdirAll(pw.dir, 0o755); err != nil {
		pw.err = fmt.Errorf("snapshot: create pack dir: %w", err)
		return pw.err
	}
	f, err := os.CreateTemp(pw.dir, "tmp_pack_")
	if err != nil {
		pw.err = fmt.Errorf("snapshot: create pack: %w", err)
		return pw.err
	}
	pw.f = f
	pw.w = bufio.NewWriterSize(f, 1<<18)
	var hdr [12]byte
	copy(hdr[:], "PACK")
	binary.BigEndian.PutUint32(hdr[4:], 2)
	pw.w.Write(hdr[:]) // count patched by finish
	pw.offset = 12
	return nil
}

// addRaw appends an already encoded, non-delta pack entry. Write errors
// surface at finish.
func (pw *packWriter) addRaw(h plumbing.Hash, entry []byte) error {
	crc := crc32.ChecksumIEEE(entry)
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if err := pw.create(); err != nil {
		return err
	}
	pw.idx.Add(h, uint64(pw.offset), crc)
	n, _ := pw.w.Write(entry)
	pw.offset += int64(n)
	pw.count++
	return nil
}

// entryBufs recycles the buffers entries are compressed into: a first
// snapshot compresses tens of thousands of them.
var entryBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// add compresses and appends one object.
func (pw *packWriter) add(h plumbing.Hash, t plumbing.ObjectType, content []byte) error {
	buf := entryBufs.Get().(*bytes.Buffer)
	defer entryBufs.Put(buf)
	if err := encodeEntry(buf, t, content); err != nil {
		return err
	}
	return pw.addRaw(h, buf.Bytes()) // copies
}

func encodeEntry(buf *bytes.Buffer, t plumbing.ObjectType, content []byte) error {
	buf.Reset()
	buf.Grow(len(content)/2 + 64)
	buf.Write(entryHeader(t, int64(len(content))))
	zw := zlibPool.Get().(*zlib.Writer)
	zw.Reset(buf)
	_, err := zw.Write(content)
	if err == nil {
		err = zw.Close()
	}
	zlibPool.Put(zw)
	return err
}

func entryHeader(t plumbing.ObjectType, size int64) []byte {
	b := []byte{byte(t)<<4 | byte(size&0x0f)}
	size >>= 4
	for size > 0 {
		b[len(b)-1] |= 0x80
		b = append(b, byte(size&0x7f))
		size >>= 7
	}
	return b
}

// finish writes the trailer and index and moves both into place; the pack
// becomes visible only once complete.
func (pw *packWriter) finish() (name string, err error) {
	pw.mu.Lock()
	err = pw.create() // an empty pack still gets a file
	pw.mu.Unlock()
	if err != nil {
		return "", err
	}
	tmp := pw.f.Name()
	defer func() {
		if err != nil {
			pw.f.Close()
			os.Remove(tmp)
		}
	}()
	if err := pw.w.Flush(); err != nil {
		return "", fmt.Errorf("snapshot: write pack: %w", err)
	}
	var cnt [4]byte
	binary.BigEndian.PutUint32(cnt[:], pw.count)
	if _, err := pw.f.WriteAt(cnt[:], 8); err != nil {
		return "", fmt.Errorf("snapshot: write pack: %w", err)
	}
	sum := sha1.New()
	if _, err := io.Copy(sum, io.NewSectionReader(pw.f, 0, pw.offset)); err != nil {
		return "", fmt.Errorf("snapshot: checksum pack: %w", err)
	}
	var trailer plumbing.Hash
	copy(trailer[:], sum.Sum(nil))
	if _, err := pw.f.WriteAt(trailer[:], pw.offset); err != nil {
		return "", fmt.Errorf("snapshot: write pack: %w", err)
	}
	if err := pw.f.Close(); err != nil {
		return "", fmt.Errorf("snapshot: write pack: %w", err)
	}
	if err := pw.idx.OnFooter(trailer); err != nil {
		return "", err
	}
	idx, err := pw.idx.Index()
	if err != nil {
		return "", err
	}
	pw.index = idx
	var ibuf bytes.Buffer
	if _, err := idxfile.NewEncoder(&ibuf).Encode(idx); err != nil {
		return "", fmt.Errorf("snapshot: encode pack index: %w", err)
	}
	name = "pack-" + trailer.String()
	os.Chmod(tmp, 0o444)
	if err := os.Rename(tmp, filepath.Join(pw.dir, name+".pack")); err != nil {
		return "", fmt.Errorf("snapshot: install pack: %w", err)
	}
	// The index goes last: readers discover packs through their index.
	if err := fsatomic.WriteFile(filepath.Join(pw.dir, name+".idx"), ibuf.Bytes(), 0o444); err != nil {
		os.Remove(filepath.Join(pw.dir, name+".pack"))
		return "", fmt.Errorf("snapshot: install pack index: %w", err)
	}
	return name, nil
}

func (pw *packWriter) abort() {
	if pw.f != nil {
		pw.f.Close()
		os.Remove(pw.f.Name())
	}
}

// readLoose inflates a loose object.
func readLoose(path string) (plumbing.ObjectType, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, fmt.Errorf("snapshot: corrupt loose object %s: %w", path, err)
	}
	defer zr.Close()
	data, err := io.ReadAll(zr)
	if err != nil {
		return 0, nil, fmt.Errorf("snapshot: corrupt loose object %s: %w", path, err)
	}
	nul := bytes.IndexByte(data, 0)
	sp := bytes.IndexByte(data, ' ')
	if nul < 0 || sp < 0 || sp > nul {
		return 0, nil, fmt.Errorf("snapshot: corrupt loose object %s", path)
	}
	t, err := plumbing.ParseObjectType(string(data[:sp]))
	if err != nil {
		return 0, nil, fmt.Errorf("snapshot: corrupt loose object %s: %w", path, err)
	}
	size, err := strconv.Atoi(string(data[sp+1 : nul]))
	if err != nil || size != len(data)-nul-1 {
		return 0, nil, fmt.Errorf("snapshot: corrupt loose object %s: size mismatch", path)
	}
	return t, data[nul+1:], nil
}

// packSource reads raw entries out of one existing pack.
type packSource struct {
	f       *os.File
	idx     *idxfile.MemoryIndex
	offsets []int64 // sorted entry offsets
	end     int64   // start of the trailer
}

func openPackSource(dir string, p *packIndex) (*packSource, error) {
	f, err := os.Open(filepath.Join(dir, "pack", p.name+".pack"))
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	ps := &packSource{f: f, idx: p.idx, end: fi.Size() - 20}
	iter, err := p.idx.Entries()
	if err != nil {
		f.Close()
		return nil, err
	}
	for {
		e, err := iter.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		ps.offsets = append(ps.offsets, int64(e.Offset))
	}
	sort.Slice(ps.offsets, func(i, j int) bool { return ps.offsets[i] < ps.offsets[j] })
	return ps, nil
}

// raw returns the entry bytes of h if it is a non-delta entry of this pack.
func (ps *packSource) raw(h plumbing.Hash) ([]byte, bool) {
	off, err := ps.idx.FindOffset(h)
	if err != nil {
		return nil, false
	}
	i := sort.Search(len(ps.offsets), func(i int) bool { return ps.offsets[i] > off })
	end := ps.end
	if i < len(ps.offsets) {
		end = ps.offsets[i]
	}
	if end <= off {
		return nil, false
	}
	buf := make([]byte, end-off)
	if _, err := ps.f.ReadAt(buf, off); err != nil {
		return nil, false
	}
	switch plumbing.ObjectType((buf[0] >> 4) & 7) {
	case plumbing.CommitObject, plumbing.TreeObject, plumbing.BlobObject, plumbing.TagObject:
		return buf, true
	}
	return nil, false // a delta (e.g. after a manual `git gc`): re-encode instead
}
