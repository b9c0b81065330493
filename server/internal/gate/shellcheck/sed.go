package shellcheck

import "strings"

// sedCmd is read-only unless it edits in place (-i) or its script writes
// files (w, W, s///w) or runs commands (e, s///e). A script in a file (-f)
// cannot be checked.
func sedCmd(a *analyzer, argv []arg, cx *callCtx) {
	flags, ops := parseArgs(argv[1:], spec_sed_0)
	inPlace := has(flags, "-i") || hasPrefix(flags, "--in-place")
	var scripts []arg
	for _, f := range values(flags, "-e", "--expression") {
		scripts = append(scripts, arg{val: f.value, lit: f.lit})
	}
	files := ops
	if len(scripts) == 0 && !has(flags, "-f", "--file") && len(ops) > 0 {
		scripts, files = ops[:1], ops[1:]
	}
	i := a.emit(argv, cx, ReadOnly)
	sub := func() *SubCommand { return &a.out.Commands[i] }
	if has(flags, "-f", "--file") {
		sub().raise(Mutating, "runs a sed script from a file, which cannot be checked")
	}
	sandbox := has(flags, "--sandbox")
	for _, s := range scripts {
		if !s.lit {
			sub().raise(Dangerous, "sed script computed at run time ("+s.val+")")
			continue
		}
		writes, exec, ok := sedScript(s.val)
		switch {
		case !ok:
			sub().raise(Mutating, "sed script not understood")
		case sandbox:
		case exec:
			sub().raise(Dangerous, "sed script runs shell commands (e)")
		}
		if !sandbox {
			for _, w := range writes {
				a.checkWrite(i, arg{val: w, lit: true})
			}
		}
	}
	if inPlace {
		sub().raise(Mutating, "edits files in place")
		for _, f := range files {
			pi := a.checkWrite(i, f)
			if pi.kind == pkInside && f.lit {
				a.hint(ToolEditFile, "Use the edit_file tool to change "+f.val+" instead of `sed -i`.")
			}
		}
	}
}

// sedScript scans a GNU sed script for commands that write files or run
// shell commands. ok is false when the script does not parse; the caller
// must then assume the worst reasonable case.
func sedScript(s string) (writes []string, exec, ok bool) {
	i := 0
	n := len(s)
	skipSpace := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// readDelimited reads up to the unescaped delimiter d, past it.
	readDelimited := func(d byte) bool {
		for i < n {
			c := s[i]
			if c == '\\' && i+1 < n {
				i += 2
				continue
			}
			if c == '\n' && d != '\n' {
				return false
			}
			i++
			if c == d {
				return true
			}
		}
		return false
	}
	restOfLine := func() string {
		start := i
		for i < n && s[i] != '\n' {
			i++
		}
		return strings.TrimSpace(s[start:i])
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !readDelimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !readDelimited(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	for {
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ';') {
			i++
		}
		if i >= n {
			return writes, exec, true
		}
		if !address() {
			return nil, false, false
		}
		skipSpace()
		if i < n && (s[i] == ',') {
			i++
			skipSpace()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return nil, false, false
			}
		}
		skipSpace()
		for i < n && s[i] == '!' {
			i++
			skipSpace()
		}
		if i >= n {
			return nil, false, false
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'x', 'n', 'N', 'p', 'P', 'z', 'F', 'l', 'q', 'Q', 'L':
			// l, q, Q, L take an optional number.
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case '#':
			restOfLine()
		case ':', 'b', 't', 'T', 'v':
			for i < n && s[i] != '\n' && s[i] != ';' {
				i++
			}
		case 'a', 'i', 'c', 'r', 'R':
			restOfLine()
		case 'w', 'W':
			f := restOfLine()
			if f == "" {
				return nil, false, false
			}
			writes = append(writes, f)
		case 'e':
			exec = true
			restOfLine()
		case 's':
			if i >= n {
				return nil, false, false
			}
			d := s[i]
			i++
			if !readDelimited(d) || !readDelimited(d) {
				return nil, false, false
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e':
					exec = true
				case 'w':
					i++
					f := restOfLine()
					if f == "" {
						return nil, false, false
					}
					writes = append(writes, f)
					continue
				}
				i++
			}
		case 'y':
			if i >= n {
				return nil, false, false
			}
			d := s[i]
			i++
			if !readDelimited(d) || !readDelimited(d) {
				return nil, false, false
			}
		default:
			return nil, false, false
		}
	}
}

// Option specs are built once: building their sets per call showed up in
// the benchmark.
var (
	spec_sed_0 = spec{valued: set("-e", "-f", "-l", "--expression", "--file", "--line-length")}
)
