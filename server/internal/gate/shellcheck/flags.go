package shellcheck

import "strings"

// flag is one parsed option: "-r", "--output" (with value when it takes one).
type flag struct {
	name  string
	value string
	lit   bool
}

// spec describes a command's options: which take a value, and whether the
// first operand ends option parsing (as for commands that run a command).
type spec struct {
	// valued options take the next word (or the rest of a short group, or
	// the text after "=") as their value: "-n", "--lines".
	valued map[string]bool
	// stopAtOperand stops option parsing at the first operand; the rest are
	// all operands (a wrapped command and its own options).
	stopAtOperand bool
	// longSingleDash means "-name" is one long option (find, go, tsc).
	longSingleDash bool
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// parseArgs splits a command's arguments into options and operands the way
// getopt-style tools do. A computed word is an operand: its value is unknown.
func parseArgs(args []arg, sp spec) (flags []flag, ops []arg) {
	for i := 0; i < len(args); i++ {
		x := args[i]
		v := x.val
		if !x.lit || x.stdin || x.procSubst || len(v) < 2 || v[0] != '-' {
			ops = append(ops, x)
			if sp.stopAtOperand {
				return flags, append(ops, args[i+1:]...)
			}
			continue
		}
		if v == "--" {
			return flags, append(ops, args[i+1:]...)
		}
		if strings.HasPrefix(v, "--") || sp.longSingleDash {
			name, val, hasEq := strings.Cut(v, "=")
			if sp.longSingleDash && !strings.HasPrefix(name, "--") {
				name = "-" + name
			}
			f := flag{name: name, lit: true}
			switch {
			case hasEq:
				f.value = val
			case sp.valued[name] && i+1 < len(args):
				i++
				f.value, f.lit = args[i].val, args[i].lit
			}
			flags = append(flags, f)
			continue
		}
		for j := 1; j < len(v); j++ {
			name := "-" + string(v[j])
			if sp.valued[name] {
				f := flag{name: name, lit: true}
				if j+1 < len(v) {
					f.value = v[j+1:]
				} else if i+1 < len(args) {
					i++
					f.value, f.lit = args[i].val, args[i].lit
				}
				flags = append(flags, f)
				break
			}
			flags = append(flags, flag{name: name, lit: true})
		}
	}
	return flags, ops
}

// has reports whether any of the names was given ("-r", "--recursive").
// A long name also matches its "--name=value" form.
func has(flags []flag, names ...string) bool {
	for _, f := range flags {
		for _, n := range names {
			if f.name == n {
				return true
			}
		}
	}
	return false
}

// hasPrefix reports whether an option starts with one of the prefixes; it
// catches abbreviations getopt_long accepts ("--forc" for "--force").
func hasPrefix(flags []flag, prefixes ...string) bool {
	for _, f := range flags {
		for _, p := range prefixes {
			if strings.HasPrefix(f.name, p) {
				return true
			}
		}
	}
	return false
}

func values(flags []flag, names ...string) []flag {
	var out []flag
	for _, f := range flags {
		for _, n := range names {
			if f.name == n {
				out = append(out, f)
			}
		}
	}
	return out
}
