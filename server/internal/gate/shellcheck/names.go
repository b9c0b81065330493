package shellcheck

import "strings"

// Programs are installed under versioned and alternative names: lua5.1,
// python3.12, php8.2, nc.traditional, nc.openbsd. Such a name is the same
// program, so it gets the same analysis; without this an unknown name was
// merely "mutating" and nc.traditional -e /bin/sh slipped below dangerous.

// altSuffixes are Debian alternatives' suffixes for one program's builds.
var altSuffixes = []string{".traditional", ".openbsd", ".bsd", ".gnu", ".nmap", ".real", ".default"}

// canonicalName is the program a name is a version or build of, or name
// itself when it is known as it is or no known program matches.
func canonicalName(name string) string {
	if knownName(name) {
		return name
	}
	for _, s := range altSuffixes {
		if b, ok := strings.CutSuffix(name, s); ok && knownName(b) {
			return b
		}
	}
	// A version suffix: lua5.1, python3.12, perl5.36, ruby3.2, pip3.11.
	b := strings.TrimRight(name, "0123456789.")
	b = strings.TrimSuffix(b, "-")
	if b != name && b != "" && knownName(b) {
		return b
	}
	return name
}

func knownName(name string) bool {
	if _, ok := handlers[name]; ok {
		return true
	}
	_, d := dangerousCmds[name]
	return d || readOnlyCmds[name] || netClients[name]
}

// runCanonical analyses argv as the program canon and keeps the name as
// written on the sub-commands it produced. A renamed program is never
// read-only: a binary called ls2 need not be ls, so the rename may only
// add to what an unknown program gets.
func (a *analyzer) runCanonical(argv []arg, canon string, cx *callCtx) {
	start := len(a.out.Commands)
	renamed := append([]arg{{val: canon, lit: true}}, argv[1:]...)
	a.run(renamed, cx)
	for k := start; k < len(a.out.Commands); k++ {
		c := &a.out.Commands[k]
		if c.Name == canon {
			c.Name = argv[0].val
		}
		if c.Class < Mutating {
			c.raise(Mutating, argv[0].val+" is taken as "+canon+", and not trusted as read-only")
		}
	}
}
