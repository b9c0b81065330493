package snapshot

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/govibe/govibe/server/internal/util/fsatomic"
)

// statKey is what must be unchanged for a file's cached hash to be reused.
// ctime catches chmod and writes that restore the mtime; the inode catches
// replacement by rename.
type statKey struct {
	size  int64
	mtime int64 // ns
	ctime int64 // ns; 0 where the platform has none
	ino   uint64
	mode  filemode.FileMode
}

type cacheEntry struct {
	key  statKey
	hash plumbing.Hash
}

// statCache maps workspace paths to the blob of their last snapshotted
// content. An entry is only ever recorded for a blob already stored, so a
// hit needs no existence check.
//
// Concurrency: not safe for concurrent use; guarded by the Store mutex
// (the scan reads it before workers start and merges results afterwards).
type statCache struct {
	entries map[string]cacheEntry
	dirty   bool
}

const statCacheMagic = "GVSTAT1\n"

func loadStatCache(path string) *statCache {
	c := &statCache{entries: map[string]cacheEntry{}}
	data, err := os.ReadFile(path)
	if err != nil || len(data) < len(statCacheMagic)+4 {
		return c
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum || !bytes.HasPrefix(body, []byte(statCacheMagic)) {
		// A damaged cache only costs re-hashing; never trust it.
		return c
	}
	r := bytes.NewReader(body[len(statCacheMagic):])
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return c
	}
	entries := make(map[string]cacheEntry, n)
	for i := uint64(0); i < n; i++ {
		plen, err := binary.ReadUvarint(r)
		if err != nil || plen > uint64(r.Len()) {
			return c
		}
		p := make([]byte, plen)
		r.Read(p)
		var e cacheEntry
		var vals [5]uint64
		for j := range vals {
			if vals[j], err = binary.ReadUvarint(r); err != nil {
				return c
			}
		}
		e.key = statKey{size: int64(vals[0]), mtime: int64(vals[1]), ctime: int64(vals[2]),
			ino: vals[3], mode: filemode.FileMode(vals[4])}
		if _, err := r.Read(e.hash[:]); err != nil {
			return c
		}
		entries[string(p)] = e
	}
	c.entries = entries
	return c
}

func (c *statCache) lookup(path string, k statKey) (plumbing.Hash, bool) {
	e, ok := c.entries[path]
	if !ok || e.key != k {
		return plumbing.ZeroHash, false
	}
	return e.hash, true
}

// replace swaps in the entries of the latest scan, dropping paths that are
// gone.
func (c *statCache) replace(entries map[string]cacheEntry) {
	if len(entries) == len(c.entries) {
		same := true
		for p, e := range entries {
			if old, ok := c.entries[p]; !ok || old != e {
				same = false
				break
			}
		}
		if same {
			return
		}
	}
	c.entries = entries
	c.dirty = true
}

// forget drops one path's entry (an incremental scan's old content).
func (c *statCache) forget(path string) {
	if _, ok := c.entries[path]; ok {
		delete(c.entries, path)
		c.dirty = true
	}
}

// merge records the entries of an incremental scan.
func (c *statCache) merge(entries map[string]cacheEntry) {
	for p, e := range entries {
		if old, ok := c.entries[p]; !ok || old != e {
			c.entries[p] = e
			c.dirty = true
		}
	}
}

// keepOnly drops entries whose blob is not in reachable (after GC).
func (c *statCache) keepOnly(reachable map[plumbing.Hash]struct{}) {
	for p, e := range c.entries {
		if _, ok := reachable[e.hash]; !ok {
			delete(c.entries, p)
			c.dirty = true
		}
	}
}

func (c *statCache) save(path string) error {
	if !c.dirty {
		return nil
	}
	paths := make([]string, 0, len(c.entries))
	for p := range c.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	w.WriteString(statCacheMagic)
	var tmp [binary.MaxVarintLen64]byte
	put := func(v uint64) { w.Write(tmp[:binary.PutUvarint(tmp[:], v)]) }
	put(uint64(len(paths)))
	for _, p := range paths {
		e := c.entries[p]
		put(uint64(len(p)))
		w.WriteString(p)
		put(uint64(e.key.size))
		put(uint64(e.key.mtime))
		put(uint64(e.key.ctime))
		put(e.key.ino)
		put(uint64(e.key.mode))
		w.Write(e.hash[:])
	}
	w.Flush()
	binary.LittleEndian.PutUint32(tmp[:4], crc32.ChecksumIEEE(buf.Bytes()))
	buf.Write(tmp[:4])
	if err := fsatomic.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	c.dirty = false
	return nil
}
