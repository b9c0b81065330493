package snapshot

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// refPrefix keeps every snapshot reachable in the SHADOW repository only.
const refPrefix = "refs/govibe/snapshots/"

// Trailer keys in snapshot commit messages; they are the source of truth
// for Info, so a store can always be listed from its refs alone.
const (
	trSession  = "Govibe-Session"
	trTurn     = "Govibe-Turn"
	trTurnID   = "Govibe-Turn-Id"
	trRoot     = "Govibe-Root"
	trReason   = "Govibe-Reason"
	trTime     = "Govibe-Time"
	trChanged  = "Govibe-Changed"
	trMessage  = "Govibe-Message"
	trSkipped  = "Govibe-Skipped"
	trSkippedN = "Govibe-Skipped-Count"
)

// Why a snapshot was taken. The values are the strings earlier versions
// wrote, so old stores read the same.
const (
	ReasonBeforeTurn = "before turn"
	ReasonAfterTurn  = "after turn"
	ReasonManual     = "manual"
	// ReasonSafety is the snapshot a restore takes first, so it can be undone.
	ReasonSafety = "before restore"
)

var signature = object.Signature{Name: "GoVibe", Email: "snapshots@govibe.invalid"}

// oneLine keeps the first line of s, trimmed and bounded, so it can sit in
// a trailer.
func oneLine(s string, maxLen int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > maxLen {
		cut := maxLen
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func encodeMessage(info Info) string {
	var b strings.Builder
	subject := info.Message
	if subject == "" {
		subject = info.Reason
	}
	if subject == "" {
		subject = "snapshot"
	}
	b.WriteString(subject)
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "%s: %s\n", trSession, info.SessionID)
	fmt.Fprintf(&b, "%s: %d\n", trTurn, info.Turn)
	if info.TurnID != "" {
		fmt.Fprintf(&b, "%s: %s\n", trTurnID, info.TurnID)
	}
	fmt.Fprintf(&b, "%s: %s\n", trRoot, oneLine(info.Root, 1000))
	fmt.Fprintf(&b, "%s: %s\n", trReason, info.Reason)
	fmt.Fprintf(&b, "%s: %s\n", trTime, info.Time.UTC().Format(time.RFC3339Nano))
	fmt.Fprintf(&b, "%s: %d\n", trChanged, info.ChangedFiles)
	fmt.Fprintf(&b, "%s: %s\n", trMessage, info.Message)
	fmt.Fprintf(&b, "%s: %d\n", trSkippedN, info.SkippedCount)
	for _, sk := range info.Skipped {
		fmt.Fprintf(&b, "%s: %s %s\n", trSkipped, sk.Reason, sk.Path)
	}
	return b.String()
}

func decodeMessage(c *object.Commit) Info {
	info := Info{ID: c.Hash.String(), Time: c.Committer.When, tree: c.TreeHash.String()}
	sc := bufio.NewScanner(strings.NewReader(c.Message))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			key, ok = strings.CutSuffix(sc.Text(), ":")
			if !ok {
				continue
			}
		}
		switch key {
		case trSession:
			info.SessionID = val
		case trTurn:
			info.Turn, _ = strconv.Atoi(val)
		case trTurnID:
			info.TurnID = val
		case trRoot:
			info.Root = val
		case trReason:
			info.Reason = val
		case trTime:
			if t, err := time.Parse(time.RFC3339Nano, val); err == nil {
				info.Time = t
			}
		case trChanged:
			info.ChangedFiles, _ = strconv.Atoi(val)
		case trMessage:
			info.Message = val
		case trSkippedN:
			info.SkippedCount, _ = strconv.Atoi(val)
		case trSkipped:
			reason, path, _ := strings.Cut(val, " ")
			info.Skipped = append(info.Skipped, Skipped{Path: path, Reason: reason})
		}
	}
	return info
}

// loadInfos brings s.infos in line with the refs on disk (another process
// may have added or pruned snapshots) and returns them newest first. Ref
// names carry the commit id, so only new snapshots' commits are read.
func (s *Store) loadInfos() ([]Info, error) {
	ids, err := s.snapshotIDs()
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(ids))
	for id := range ids {
		info, ok := s.infos[id]
		if !ok {
			c, err := object.GetCommit(s.git(), plumbing.NewHash(id))
			if err != nil {
				return nil, fmt.Errorf("snapshot: read snapshot %s: %w", id, err)
			}
			info = decodeMessage(c)
			// The store is per root; what it is opened for wins over the
			// trailer (the folder may have moved).
			info.Root = s.root
			s.infos[id] = info
		}
		out = append(out, info)
	}
	for id := range s.infos {
		if !ids[id] {
			delete(s.infos, id)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.After(out[j].Time)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// snapshotIDs lists the snapshot refs: loose ref files by name, plus
// packed-refs in case someone ran git gc on the shadow repository.
func (s *Store) snapshotIDs() (map[string]bool, error) {
	ids := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(s.dir, filepath.FromSlash(refPrefix)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("snapshot: list snapshots: %w", err)
	}
	for _, e := range entries {
		if h := plumbing.NewHash(e.Name()); !h.IsZero() && h.String() == e.Name() {
			ids[e.Name()] = true
		}
	}
	packed, err := os.ReadFile(filepath.Join(s.dir, "packed-refs"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("snapshot: list snapshots: %w", err)
	}
	for _, line := range strings.Split(string(packed), "\n") {
		hash, name, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && strings.HasPrefix(name, refPrefix) && strings.TrimPrefix(name, refPrefix) == hash {
			// A packed ref counts only while no deletion removed it; go-git
			// rewrites packed-refs on RemoveReference, so presence is enough.
			ids[hash] = true
		}
	}
	return ids, nil
}

// resolve finds a snapshot by full ID or unique prefix (at least 4 hex
// digits).
func (s *Store) resolve(id string) (Info, error) {
	infos, err := s.loadInfos()
	if err != nil {
		return Info{}, err
	}
	id = strings.ToLower(strings.TrimSpace(id))
	if len(id) < 4 {
		return Info{}, fmt.Errorf("%w: snapshot id %q is too short", ErrNotFound, id)
	}
	var match []Info
	for _, in := range infos {
		if strings.HasPrefix(in.ID, id) {
			match = append(match, in)
		}
	}
	switch len(match) {
	case 1:
		return match[0], nil
	case 0:
		return Info{}, fmt.Errorf("%w: snapshot %q", ErrNotFound, id)
	default:
		return Info{}, fmt.Errorf("snapshot: id %q is ambiguous (%d snapshots)", id, len(match))
	}
}

// writeCommit stores the snapshot commit, calls stored (which installs the
// pack holding it), then writes its ref.
func (s *Store) writeCommit(info Info, tree plumbing.Hash, stored func() error) (Info, error) {
	info.Root = s.root
	sig := signature
	sig.When = info.Time
	c := &object.Commit{Author: sig, Committer: sig, Message: encodeMessage(info), TreeHash: tree}
	obj := &plumbing.MemoryObject{}
	if err := c.Encode(obj); err != nil {
		return Info{}, fmt.Errorf("snapshot: encode commit: %w", err)
	}
	h, err := s.putEncoded(obj)
	if err != nil {
		return Info{}, err
	}
	if err := stored(); err != nil {
		return Info{}, err
	}
	ref := plumbing.NewHashReference(plumbing.ReferenceName(refPrefix+h.String()), h)
	if err := s.storage.SetReference(ref); err != nil {
		return Info{}, fmt.Errorf("snapshot: write ref: %w", err)
	}
	info.ID = h.String()
	info.tree = tree.String()
	// Read back through the same decoder List uses, so both agree exactly
	// (e.g. on time precision).
	c.Hash = h
	info = decodeMessage(c)
	info.Root = s.root
	s.infos[info.ID] = info
	return info, nil
}

func removeRef(st storer.ReferenceStorer, id string) error {
	return st.RemoveReference(plumbing.ReferenceName(refPrefix + id))
}
