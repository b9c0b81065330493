package mcpclient

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// PromptArgs reads a prompt command's arguments as a shell splits words
// (mvdan.cc/sh's parser): `city="New, York"` and 'a b' are one argument
// each, quotes removed. Then name=value pairs name their argument and
// plain values fill the declared arguments not yet named, in order; extra
// plain values are dropped. Nothing is expanded: a word holding $x, `…` or
// another expansion is passed as typed. An unclosed quote is an error.
func PromptArgs(declared []string, args string) (map[string]string, error) {
	words, err := shellWords(args)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	i := 0
	for _, f := range words {
		if k, v, ok := strings.Cut(f, "="); ok && k != "" {
			out[k] = v
			continue
		}
		for i < len(declared) && out[strings.TrimSuffix(declared[i], "*")] != "" {
			i++
		}
		if i < len(declared) {
			out[strings.TrimSuffix(declared[i], "*")] = f
			i++
		}
	}
	return out, nil
}

// maxArgText bounds what is parsed: prompt arguments are typed text.
const maxArgText = 64 << 10

// shellWords splits s into words with the shell's quoting rules.
func shellWords(s string) ([]string, error) {
	if len(s) > maxArgText {
		return nil, fmt.Errorf("the arguments are %d KB; the limit is %d KB", len(s)>>10, maxArgText>>10)
	}
	var out []string
	var werr error
	err := syntax.NewParser().Words(strings.NewReader(s), func(w *syntax.Word) bool {
		if !literalOnly(w) {
			out = append(out, s[w.Pos().Offset():w.End().Offset()])
			return true
		}
		var b strings.Builder
		for _, part := range w.Parts {
			switch x := part.(type) {
			case *syntax.Lit:
				b.WriteString(unescape(x.Value))
			case *syntax.SglQuoted:
				b.WriteString(x.Value)
			default: // a double-quoted string of plain text
				v, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{part}})
				if err != nil {
					werr = err
					return false
				}
				b.WriteString(v)
			}
		}
		out = append(out, b.String())
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the arguments %q: %v", s, err)
	}
	return out, nil
}

// literalOnly reports whether w is plain text and quotes, with nothing a
// shell would expand.
func literalOnly(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			if x.Dollar {
				return false
			}
			for _, q := range x.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// unescape removes the backslashes of unquoted text as a shell does: \x
// is x, and a backslash before a newline joins the lines.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
