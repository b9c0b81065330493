package snapshot

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/klauspost/compress/zlib"
)

// objectStore writes git objects into the shadow repository's object
// directory and answers whether an object exists.
//
// Objects are written as standard loose objects (or packed, see pack.go),
// compressed at zlib.BestSpeed (git's own core.looseCompression default)
// instead of the default level go-git uses: snapshot time is dominated by
// compression. The compressor is klauspost/compress's zlib, whose level 1
// is 2.3x faster than the standard library's on source text for the same
// size (3,280 vs 3,224 bytes for 8 KB of generated Go), and whose output
// any zlib reads.
//
// Concurrency: has and writeObject are safe for concurrent use by the
// hashing workers; reloadPacks and the loose counter reset are called only
// under the Store mutex while no workers run.
type objectStore struct {
	dir string // <repo>/objects

	mu    sync.Mutex
	known map[plumbing.Hash]struct{} // objects known to exist
	dirs  map[byte]bool              // fan-out directories known to exist
	loose int                        // approximate loose object count
	packs []*packIndex

	// While a scan streams new objects into a pack (see beginPack), pack
	// is set and inPack holds the ids already appended to it.
	pack   *packWriter
	inPack map[plumbing.Hash]struct{}
}

type packIndex struct {
	dir  string // objects/pack
	name string // pack-<hash> without extension
	idx  *idxfile.MemoryIndex
	size int64 // of the .pack file
}

var zlibPool = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return w
}}

func openObjectStore(dir string) (*objectStore, error) {
	o := &objectStore{dir: dir, known: map[plumbing.Hash]struct{}{}, dirs: map[byte]bool{}}
	if err := o.reloadPacks(); err != nil {
		return nil, err
	}
	n, err := o.countLoose()
	if err != nil {
		return nil, err
	}
	o.loose = n
	return o, nil
}

// reloadPacks brings the pack list in line with the pack directory; called
// after packing, GC, or when another process changed the packs. Indexes
// already loaded are kept (a pack's name is its checksum, so a name stands
// for one content): a snapshot adds a small pack, and decoding the big
// first snapshot's index again each time would cost more than the snapshot.
func (o *objectStore) reloadPacks() error {
	entries, err := os.ReadDir(filepath.Join(o.dir, "pack"))
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("snapshot: read packs: %w", err)
	}
	o.mu.Lock()
	old := make(map[string]*packIndex, len(o.packs))
	for _, p := range o.packs {
		old[p.name] = p
	}
	o.mu.Unlock()
	var packs []*packIndex
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !strings.HasPrefix(name, "pack-") {
			continue
		}
		if p, ok := old[name]; ok {
			packs = append(packs, p)
			delete(old, name)
			continue
		}
		p, err := loadPackIndex(filepath.Join(o.dir, "pack"), name)
		if err != nil {
			return err
		}
		packs = append(packs, p)
	}
	o.mu.Lock()
	o.packs = packs
	o.known = map[plumbing.Hash]struct{}{}
	o.mu.Unlock()
	return nil
}

func loadPackIndex(packDir, name string) (*packIndex, error) {
	f, err := os.Open(filepath.Join(packDir, name+".idx"))
	if err != nil {
		return nil, fmt.Errorf("snapshot: open pack index: %w", err)
	}
	idx := idxfile.NewMemoryIndex()
	err = idxfile.NewDecoder(f).Decode(idx)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("snapshot: decode pack index %s: %w", name, err)
	}
	p := &packIndex{dir: packDir, name: name, idx: idx}
	if fi, err := os.Stat(filepath.Join(packDir, name+".pack")); err == nil {
		p.size = fi.Size()
	}
	return p, nil
}

func (o *objectStore) countLoose() (int, error) {
	n := 0
	for i := 0; i < 256; i++ {
		entries, err := os.ReadDir(filepath.Join(o.dir, fmt.Sprintf("%02x", i)))
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return 0, fmt.Errorf("snapshot: count loose objects: %w", err)
		}
		n += len(entries)
	}
	return n, nil
}

func (o *objectStore) loosePath(h plumbing.Hash) string {
	hex := h.String()
	return filepath.Join(o.dir, hex[:2], hex[2:])
}

// has reports whether the object is stored, loose or packed.
func (o *objectStore) has(h plumbing.Hash) bool {
	o.mu.Lock()
	_, ok := o.known[h]
	packs := o.packs
	o.mu.Unlock()
	if ok {
		return true
	}
	found := false
	for _, p := range packs {
		if c, _ := p.idx.Contains(h); c {
			found = true
			break
		}
	}
	if !found && o.looseCount() > 0 {
		// With no loose object known (another process may have written
		// one since), a miss costs no lstat: at worst the object is
		// stored twice, which git accepts.
		_, err := os.Lstat(o.loosePath(h))
		found = err == nil
	}
	if found {
		o.markKnown(h)
	}
	return found
}

func (o *objectStore) markKnown(h plumbing.Hash) {
	o.mu.Lock()
	o.known[h] = struct{}{}
	o.mu.Unlock()
}

// hashObject computes the git object id of content. crypto/sha1 (SHA-NI
// where the CPU has it) rather than go-git's hasher, whose collision
// detection costs more than twice as much: the content is the
// workspace's own, not an attacker's object, and git computes the same id.
func hashObject(t plumbing.ObjectType, content []byte) plumbing.Hash {
	h := sha1.New()
	var hdr [32]byte
	h.Write(objectHeader(hdr[:0], t, len(content)))
	h.Write(content)
	var out plumbing.Hash
	h.Sum(out[:0])
	return out
}

// objectHeader appends git's object header ("blob 123\x00") to b.
func objectHeader(b []byte, t plumbing.ObjectType, size int) []byte {
	b = append(b, t.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(size), 10)
	return append(b, 0)
}

// put stores content as an object unless it already exists and returns its
// id. The id is computed from the very bytes that are written, so a file
// changing underneath can never yield an object whose content does not
// match its name.
func (o *objectStore) put(t plumbing.ObjectType, content []byte) (plumbing.Hash, error) {
	h := hashObject(t, content)
	if o.has(h) {
		return h, nil
	}
	o.mu.Lock()
	pw := o.pack
	if pw != nil {
		if _, dup := o.inPack[h]; dup {
			o.mu.Unlock()
			return h, nil
		}
		o.inPack[h] = struct{}{}
	}
	o.mu.Unlock()
	if pw != nil {
		return h, pw.add(h, t, content)
	}
	return h, o.writeLoose(h, t, content)
}

// beginPack makes put append new objects to one new pack instead of
// writing a loose file each: creating files is what snapshots spend their
// time on (a first snapshot's tens of thousands; and a small one's few
// dozen cost more than the rest of it on a busy disk). The pack file is
// created by the first object, so a scan that stores nothing creates no
// file. Not safe to call concurrently with put.
func (o *objectStore) beginPack() {
	o.pack, o.inPack = newPackWriter(filepath.Join(o.dir, "pack")), map[plumbing.Hash]struct{}{}
}

// packing reports whether beginPack's pack is open.
func (o *objectStore) packing() bool { return o.pack != nil }

// endPack installs the pack started by beginPack (or discards it when
// keep is false, e.g. after a failed scan). Not safe to call concurrently
// with put.
func (o *objectStore) endPack(keep bool) (wrote bool, err error) {
	pw := o.pack
	if pw == nil {
		return false, nil
	}
	o.pack, o.inPack = nil, nil
	if !keep || pw.count == 0 {
		pw.abort()
		return false, nil
	}
	name, err := pw.finish()
	if err != nil {
		return false, err
	}
	// Only the new pack's index is new; it is still in memory.
	p := &packIndex{dir: pw.dir, name: name, idx: pw.index, size: pw.offset + 20}
	o.mu.Lock()
	o.packs = append(o.packs[:len(o.packs):len(o.packs)], p)
	o.mu.Unlock()
	return true, nil
}

func (o *objectStore) writeLoose(h plumbing.Hash, t plumbing.ObjectType, content []byte) error {
	hex := h.String()
	fan := filepath.Join(o.dir, hex[:2])
	o.mu.Lock()
	dirOK := o.dirs[h[0]]
	o.mu.Unlock()
	if !dirOK {
		if err := os.MkdirAll(fan, 0o755); err != nil {
			return fmt.Errorf("snapshot: write object: %w", err)
		}
		o.mu.Lock()
		o.dirs[h[0]] = true
		o.mu.Unlock()
	}
	// Created read-only (git's convention for loose objects) in one call:
	// creating files is what a small snapshot spends its time on.
	tmp := filepath.Join(fan, "tmp_obj_"+randomSuffix())
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444)
	if err != nil {
		return fmt.Errorf("snapshot: write object: %w", err)
	}
	zw := zlibPool.Get().(*zlib.Writer)
	zw.Reset(f)
	var hdr [32]byte
	_, err = zw.Write(objectHeader(hdr[:0], t, len(content)))
	if err == nil {
		_, err = zw.Write(content)
	}
	if err == nil {
		err = zw.Close()
	}
	zlibPool.Put(zw)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		dst := filepath.Join(fan, hex[2:])
		if err = os.Rename(tmp, dst); err != nil {
			// A concurrent writer of the same object may have won (on
			// Windows a read-only target cannot be replaced).
			if _, statErr := os.Lstat(dst); statErr == nil {
				err = nil
				os.Remove(tmp)
			}
		}
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("snapshot: write object %s: %w", hex, err)
	}
	o.mu.Lock()
	o.known[h] = struct{}{}
	o.loose++
	o.mu.Unlock()
	return nil
}

// randomSuffix names a temporary file uniquely among processes.
func randomSuffix() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (o *objectStore) looseCount() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.loose
}
