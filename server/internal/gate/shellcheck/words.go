package shellcheck

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one resolved word. When lit is false, val is the word's source text
// and nothing about its run-time value can be assumed.
type arg struct {
	val string
	lit bool
	// stdin marks a value supplied at run time by xargs from its input.
	stdin bool
	// found marks a path find (or fd) substitutes for {}: every matching
	// file below its start directory, so deleting it is a recursive delete.
	found bool
	// procSubst marks a <(...) or >(...) word: a /dev/fd path whose content
	// is computed by a command.
	procSubst bool
}

// maxBraceFields bounds brace expansion so that {1..100000} cannot make the
// analysis slow; longer expansions are treated as computed words.
const maxBraceFields = 256

// homeEnv makes $HOME and ~ expand to the marker "~", which the path rules
// resolve against Workspace.Home.
var homeEnv = expand.FuncEnviron(func(name string) string {
	if name == "HOME" {
		return "~"
	}
	return ""
})

var literalCfg = &expand.Config{Env: homeEnv}

// words resolves a command's words as bash would split them into fields,
// expanding braces; computed words stay single opaque fields.
func (a *analyzer) words(ws []*syntax.Word) []arg {
	out := make([]arg, 0, len(ws))
	for _, w := range ws {
		out = append(out, a.word(w)...)
	}
	return out
}

func (a *analyzer) word(w *syntax.Word) []arg {
	if len(w.Parts) == 1 {
		if _, ok := w.Parts[0].(*syntax.ProcSubst); ok {
			return []arg{{val: a.text(w), procSubst: true}}
		}
	}
	if !literalParts(w.Parts) {
		return []arg{{val: a.text(w)}}
	}
	if syntax.SplitBraces(w) {
		var out []arg
		for bw, err := range expand.BracesSeq(nil, w) {
			if err != nil || len(out) >= maxBraceFields {
				return []arg{{val: a.text(w)}}
			}
			out = append(out, a.literal(bw)...)
		}
		return out
	}
	return a.literal(w)
}

// literal resolves a word made only of literal parts into the fields bash
// would pass: quotes and escapes removed, $HOME and ~ as "~".
func (a *analyzer) literal(w *syntax.Word) []arg {
	if len(w.Parts) > 0 {
		// ~user/... names another user's home; keep it verbatim (it is
		// outside any workspace) rather than looking the user up.
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") {
			name, _, _ := strings.Cut(l.Value[1:], "/")
			if name != "" {
				return []arg{{val: a.text(w), lit: true}}
			}
		}
	}
	if v, ok := plainWord(w); ok {
		return []arg{{val: v, lit: true}}
	}
	fields, err := expand.Fields(literalCfg, w)
	if err != nil {
		return []arg{{val: a.text(w)}}
	}
	out := make([]arg, len(fields))
	for i, f := range fields {
		out[i] = arg{val: f, lit: true}
	}
	return out
}

// plainWord returns the value of the common words that need no expansion
// at all (ls, '-la', "main.go"), sparing expand.Fields' allocations.
func plainWord(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		if strings.ContainsAny(p.Value, "\\~") {
			return "", false
		}
		return p.Value, true
	case *syntax.SglQuoted:
		return p.Value, !p.Dollar
	case *syntax.DblQuoted:
		if p.Dollar {
			return "", false
		}
		if len(p.Parts) == 0 {
			return "", true
		}
		if l, ok := p.Parts[0].(*syntax.Lit); ok && len(p.Parts) == 1 && !strings.Contains(l.Value, "\\") {
			return l.Value, true
		}
	}
	return "", false
}

// literalParts reports whether the parts have a value known before running:
// plain text, quotes, brace expansions of those, and $HOME.
func literalParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !literalParts(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if !isPlainHome(p) {
				return false
			}
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				if !literalParts(e.Parts) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func isPlainHome(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Param.Value == "HOME" && !p.Excl && !p.Length &&
		!p.Width && !p.IsSet && p.NestedParam == nil && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 &&
		len(p.Modifiers) == 0 && p.Flags == nil
}

// heredocText returns the body of a here-document as the command reading it
// sees it, and whether it is free of expansions.
func (a *analyzer) heredocText(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return a.text(w), false
		}
	}
	s, err := expand.Document(nil, w)
	if err != nil {
		return a.text(w), false
	}
	return s, true
}

// text is the source text of a node within the script being analysed.
func (a *analyzer) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(a.src) || start > end {
		return "?"
	}
	return a.src[start:end]
}
