package snapshot

import (
	"bufio"
	"fmt"
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
	trReason   = "Govibe-Reason"
	trTime     = "Govibe-Time"
	trChanged  = "Govibe-Changed"
	trMessage  = "Govibe-Message"
	trSkipped  = "Govibe-Skipped"
	trSkippedN = "Govibe-Skipped-Count"
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
// may have added or pruned snapshots) and returns them newest first.
func (s *Store) loadInfos() ([]Info, error) {
	iter, err := s.storage.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("snapshot: list refs: %w", err)
	}
	seen := map[string]bool{}
	err = iter.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if !strings.HasPrefix(name, refPrefix) || ref.Type() != plumbing.HashReference {
			return nil
		}
		id := ref.Hash().String()
		seen[id] = true
		if _, ok := s.infos[id]; ok {
			return nil
		}
		c, err := object.GetCommit(s.storage, ref.Hash())
		if err != nil {
			return fmt.Errorf("snapshot: read snapshot %s: %w", id, err)
		}
		s.infos[id] = decodeMessage(c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Info, 0, len(seen))
	for id, info := range s.infos {
		if !seen[id] {
			delete(s.infos, id)
			continue
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.After(out[j].Time)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
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

// writeCommit stores the snapshot commit and its ref.
func (s *Store) writeCommit(info Info, tree plumbing.Hash) (Info, error) {
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
	s.infos[info.ID] = info
	return info, nil
}

func removeRef(st storer.ReferenceStorer, id string) error {
	return st.RemoveReference(plumbing.ReferenceName(refPrefix + id))
}
