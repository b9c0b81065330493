// The registry of slash commands typed into the chat
// ("/compact", "/btw …"). It knows names, descriptions, argument hints and
// how to recognise a command in a message; what a command does is its
// handler, whose type the registering package chooses (H), so the
// registry never depends on the engine.

package slashcmd

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
)

// command is one slash command.
type command[H any] struct {
	// Name is the command without its slash, lower case ("compact").
	Name string
	// Aliases are other spellings of the whole command word, matched
	// case-insensitively (`\btw`).
	Aliases []string
	// Description is the one line an autocomplete list shows.
	Description string
	// ArgumentHint shows what follows the name ("<question>"). A command
	// without one takes no arguments: "/compact now" is not /compact.
	ArgumentHint string
	Handler      H
}

// Info is what a client lists for autocomplete.
type Info struct {
	Name, Description, ArgumentHint string
}

// registry holds commands by name. Safe for concurrent use: commands may
// be added (custom commands found on disk) while messages are matched.
type registry[H any] struct {
	mu     sync.RWMutex
	byWord map[string]*command[H] // "/name" and aliases, lower case
	byName map[string]*command[H]
}

// newRegistry returns an empty registry.
func newRegistry[H any]() *registry[H] {
	return &registry[H]{byWord: map[string]*command[H]{}, byName: map[string]*command[H]{}}
}

// Register adds c. A name or alias already taken, or a name that is not
// one word, is an error and changes nothing.
func (r *registry[H]) Register(c command[H]) error {
	c.Name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(c.Name), "/"))
	if c.Name == "" || strings.IndexFunc(c.Name, unicode.IsSpace) >= 0 {
		return fmt.Errorf("invalid command name %q: want one word", c.Name)
	}
	words := []string{"/" + c.Name}
	for _, a := range c.Aliases {
		words = append(words, strings.ToLower(a))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range words {
		if _, taken := r.byWord[w]; taken {
			return fmt.Errorf("command %s is already registered", w)
		}
	}
	cc := c
	for _, w := range words {
		r.byWord[w] = &cc
	}
	r.byName[c.Name] = &cc
	return nil
}

// Lookup finds a command by name, with or without its slash.
func (r *registry[H]) Lookup(name string) (command[H], bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c, ok := r.byName[strings.ToLower(strings.TrimPrefix(name, "/"))]
	if !ok {
		return command[H]{}, false
	}
	return *c, true
}

// Match recognises a message that is a command: its first word is a
// command's name (with its slash) or alias, case-insensitively, followed
// by nothing or whitespace. args is the rest, trimmed. A message with
// arguments for a command that takes none is not a match.
func (r *registry[H]) Match(text string) (c command[H], args string, ok bool) {
	text = strings.TrimSpace(text)
	word, rest := text, ""
	if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
		word, rest = text[:i], strings.TrimSpace(text[i:])
	}
	r.mu.RLock()
	cmd, found := r.byWord[strings.ToLower(word)]
	r.mu.RUnlock()
	if !found || (rest != "" && cmd.ArgumentHint == "") {
		return command[H]{}, "", false
	}
	return *cmd, rest, true
}

// List returns every command, sorted by name, for autocomplete.
func (r *registry[H]) List() []Info {
	r.mu.RLock()
	out := make([]Info, 0, len(r.byName))
	for _, c := range r.byName {
		out = append(out, Info{Name: c.Name, Description: c.Description, ArgumentHint: c.ArgumentHint})
	}
	r.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
