package compact

import (
	"math/bits"
	"sync"

	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	vocabOnce   sync.Once
	cl100kVocab *vocab
)

// vocab is cl100k_base's ranks. Rank look-ups are nearly all the time BPE
// takes, and a Go map of 100k strings costs two cache misses per look-up
// (the slot, then the key's bytes). So two-byte strings, where every
// merge starts, come from a dense table, and strings of up to 8 bytes
// (three quarters of the vocabulary) from an open-addressing table that
// holds their bytes inline; only longer ones use a map. The loader's map
// of all ranks is dropped once these are built.
type vocab struct {
	bytes [256]int32     // rank of each byte (every byte is a token)
	pairs [1 << 16]int32 // rank of the two bytes hi<<8|lo, or -1
	long  map[string]int32
	short []shortEntry // linear probing from shortHash; a power of 2 long
	shift uint         // 64 - log2(len(short))
}

type shortEntry struct {
	key  uint64 // the bytes, little-endian
	rank int32
	n    uint8 // how many bytes; 0 marks an empty slot
}

// slotsPerShort sizes the short table at two slots or more per entry, so
// that a miss (most look-ups of a pair that is no token) ends within a
// probe or two.
const slotsPerShort = 2

func pack(b string) uint64 {
	var k uint64
	for i := len(b) - 1; i >= 0; i-- {
		k = k<<8 | uint64(b[i])
	}
	return k
}

func shortHash(k uint64, n int) uint64 { return (k ^ uint64(n)<<61) * 0x9E3779B97F4A7C15 }

func newVocab(ranks map[string]int) *vocab {
	v := &vocab{long: map[string]int32{}}
	for i := range v.pairs {
		v.pairs[i] = -1
	}
	shorts := 0
	for k := range ranks {
		if len(k) > 2 && len(k) <= 8 {
			shorts++
		}
	}
	size := uint(bits.Len(uint(shorts * slotsPerShort)))
	v.short, v.shift = make([]shortEntry, 1<<size), 64-size
	mask := len(v.short) - 1
	for k, r := range ranks {
		switch {
		case len(k) == 1:
			v.bytes[k[0]] = int32(r)
		case len(k) == 2:
			v.pairs[int(k[0])<<8|int(k[1])] = int32(r)
		case len(k) > 2 && len(k) <= 8:
			key := pack(k)
			h := shortHash(key, len(k))
			i := int(h >> v.shift)
			for v.short[i].n != 0 {
				i = (i + 1) & mask
			}
			v.short[i] = shortEntry{key, int32(r), uint8(len(k))}
		default:
			v.long[k] = int32(r)
		}
	}
	return v
}

// rank is the rank of b, or -1 when b is no token.
func (v *vocab) rank(b string) int {
	switch {
	case len(b) == 1:
		return int(v.bytes[b[0]])
	case len(b) == 2:
		return int(v.pairs[int(b[0])<<8|int(b[1])])
	case len(b) > 2 && len(b) <= 8:
		key, n := pack(b), uint8(len(b))
		h := shortHash(key, len(b))
		for i, mask := int(h>>v.shift), len(v.short)-1; ; i = (i + 1) & mask {
			e := &v.short[i]
			if e.n == 0 {
				return -1
			}
			if e.key == key && e.n == n {
				return int(e.rank)
			}
		}
	}
	if r, ok := v.long[b]; ok {
		return int(r)
	}
	return -1
}

// cl100k loads cl100k_base's ranks from the BPE file embedded by the
// offline loader: decisions are made before a request, with no network.
// Providers' own tokenizers differ by a few percent, which the threshold
// absorbs. nil means the embedded file did not load.
func cl100k() *vocab {
	vocabOnce.Do(func() {
		r, err := tiktokenloader.NewOfflineLoader().LoadTiktokenBpe("cl100k_base.tiktoken")
		if err == nil && len(r) > 0 {
			cl100kVocab = newVocab(r)
		}
	})
	return cl100kVocab
}
