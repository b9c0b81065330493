package sessionstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// KV is the store's raw state access; *store.Store implements it.
type KV interface {
	GetState(ctx context.Context, sessionID, key string) (json.RawMessage, bool, error)
	SetState(ctx context.Context, sessionID, key string, value json.RawMessage) error
	SetStateRelaxed(ctx context.Context, sessionID, key string, value json.RawMessage) error
	DeleteState(ctx context.Context, sessionID, key string) error
}

// Key names one state entry whose value is a T, stored as JSON. Legacy
// names are where older versions stored the same value: Get falls back to
// them (a database or an export written before the rename), Set and
// Delete remove them. Keys are immutable values.
type Key[T any] struct {
	name   string
	legacy []string
	// relaxed values are bookkeeping written several times a turn (usage
	// accounting): Set commits them without waiting for the disk, and a
	// power cut may cost the latest update (store.SetStateRelaxed).
	relaxed bool
}

// NewKey declares a key named name (legacy: older names of the same
// value, read as a fallback). The package that owns a value declares its
// key next to the value's type, so this package imports none of them. A
// name declared twice panics at start-up: two owners would overwrite each
// other's state.
func NewKey[T any](name string, legacy ...string) Key[T] {
	register(name)
	for _, l := range legacy {
		register(l)
	}
	return Key[T]{name: name, legacy: legacy}
}

// relaxedKey declares a key whose writes need not wait for the disk.
func relaxedKey[T any](name string) Key[T] {
	k := NewKey[T](name)
	k.relaxed = true
	return k
}

var (
	namesMu sync.Mutex
	names   = map[string]bool{}
)

func register(name string) {
	namesMu.Lock()
	defer namesMu.Unlock()
	if names[name] {
		panic(fmt.Sprintf("sessionstate: key %q is declared twice", name))
	}
	names[name] = true
}

// Name is the stored key.
func (k Key[T]) Name() string { return k.name }

// ErrCorrupt wraps a stored value that does not decode as the key's type.
var ErrCorrupt = errors.New("corrupt session state")

// Get returns the session's value under k and whether one is stored. The
// current name wins over legacy names.
func Get[T any](ctx context.Context, s KV, sid string, k Key[T]) (T, bool, error) {
	var v T
	for _, name := range append([]string{k.name}, k.legacy...) {
		raw, ok, err := s.GetState(ctx, sid, name)
		if err != nil {
			return v, false, err
		}
		if !ok {
			continue
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return v, false, fmt.Errorf("%w %q: %v", ErrCorrupt, name, err)
		}
		return v, true, nil
	}
	return v, false, nil
}

// BatchKV reads one key of many sessions at once; *store.Store implements
// it.
type BatchKV interface {
	StateOfSessions(ctx context.Context, key string, sessionIDs []string) (map[string]json.RawMessage, error)
}

// GetMany returns the value under k of each session in sids that has one,
// in one store query per name (the current, then each legacy name for the
// sessions still missing). A value that does not decode is left out: like
// Lookup, a list reads it as the zero value.
func GetMany[T any](ctx context.Context, s BatchKV, sids []string, k Key[T]) (map[string]T, error) {
	out := make(map[string]T, len(sids))
	missing := sids
	for _, name := range append([]string{k.name}, k.legacy...) {
		if len(missing) == 0 {
			break
		}
		raw, err := s.StateOfSessions(ctx, name, missing)
		if err != nil {
			return nil, err
		}
		var still []string
		for _, sid := range missing {
			b, ok := raw[sid]
			if !ok {
				still = append(still, sid)
				continue
			}
			var v T
			if raw, ok := any(&v).(*json.RawMessage); ok {
				*raw = b // the caller decodes it; decoding twice cost a list of 1,000 sessions 3 ms
				out[sid] = v
			} else if json.Unmarshal(b, &v) == nil {
				out[sid] = v
			}
		}
		missing = still
	}
	return out, nil
}

// Lookup is Get for callers to whom a missing, unreadable or corrupt
// value all mean "the zero value".
func Lookup[T any](ctx context.Context, s KV, sid string, k Key[T]) T {
	v, _, _ := Get(ctx, s, sid, k)
	return v
}

// Set stores v under k's name and removes any legacy copy, so a value
// written once in the current form is never shadowed by an old one.
func Set[T any](ctx context.Context, s KV, sid string, k Key[T], v T) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("session state %q: %w", k.name, err)
	}
	set := s.SetState
	if k.relaxed {
		set = s.SetStateRelaxed
	}
	if err := set(ctx, sid, k.name, b); err != nil {
		return err
	}
	return deleteNames(ctx, s, sid, k.legacy)
}

// Delete removes the value under k (and its legacy names).
func Delete[T any](ctx context.Context, s KV, sid string, k Key[T]) error {
	return deleteNames(ctx, s, sid, append([]string{k.name}, k.legacy...))
}

func deleteNames(ctx context.Context, s KV, sid string, names []string) error {
	for _, n := range names {
		if err := s.DeleteState(ctx, sid, n); err != nil {
			return err
		}
	}
	return nil
}
