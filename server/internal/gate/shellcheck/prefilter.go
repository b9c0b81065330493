package shellcheck

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// litFilter is a regexp with a literal prefilter. Go's regexp runs a large
// case-insensitive alternation such as netCode through its NFA, which cost
// ~45 µs on a 10-byte awk program and a tenth of the 1 KB benchmark. Every
// match must contain one of needles (lower-cased), derived from the
// pattern's own syntax tree, so text containing none of them cannot match
// and the regexp is not run.
type litFilter struct {
	re      *regexp.Regexp
	needles []string // nil: no prefilter could be derived, always run re
}

func newLitFilter(expr string) litFilter {
	f := litFilter{re: regexp.MustCompile(expr)}
	if t, err := syntax.Parse(expr, syntax.Perl); err == nil {
		f.needles = needles(t.Simplify())
	}
	return f
}

// FindString is regexp.FindString.
func (f litFilter) FindString(s string) string {
	if f.needles != nil && isASCII(s) {
		// On ASCII text (?i) folding is exactly lower-casing; a non-ASCII
		// letter can fold to an ASCII one (ſ to s, K to k), so such text
		// always goes to the regexp.
		low := strings.ToLower(s)
		hit := false
		for _, n := range f.needles {
			if strings.Contains(low, n) {
				hit = true
				break
			}
		}
		if !hit {
			return ""
		}
	}
	return f.re.FindString(s)
}

// needles returns lower-cased strings one of which every match of re
// contains, or nil when that cannot be told from the tree.
func needles(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 || !isASCII(string(re.Rune)) {
			return nil
		}
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture:
		return needles(re.Sub[0])
	case syntax.OpPlus:
		return needles(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needles(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// A run of parts that match a few exact strings gives those
		// strings' concatenations (N(?:C|ETCAT) is "nc" or "netcat", not
		// just "n"); any run's or part's needles will do, so take the set
		// whose shortest needle is longest, the most selective.
		var best []string
		consider := func(ns []string) {
			if ns == nil || (best != nil && shortest(ns) <= shortest(best)) {
				return
			}
			best = ns
		}
		var run []string
		for _, sub := range re.Sub {
			if ex := exact(sub); ex != nil {
				if run == nil {
					run = []string{""}
				}
				run = cross(run, ex)
				if len(run) <= maxExact {
					continue
				}
			}
			if run != nil && len(run) <= maxExact {
				consider(nonEmpty(run))
			}
			run = nil
			consider(needles(sub))
		}
		if run != nil && len(run) <= maxExact {
			consider(nonEmpty(run))
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			ns := needles(sub)
			if ns == nil {
				return nil
			}
			all = append(all, ns...)
		}
		return all
	}
	return nil
}

// maxExact bounds the sets exact and the concatenation runs build.
const maxExact = 32

// exact returns the lower-cased strings re matches when they are few
// (at most maxExact), or nil.
func exact(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}
	case syntax.OpLiteral:
		// A non-ASCII letter can fold to an ASCII one (K to k); such a
		// literal is no needle for ASCII text.
		if !isASCII(string(re.Rune)) {
			return nil
		}
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		if ex := exact(re.Sub[0]); ex != nil && len(ex) < maxExact {
			return append(ex, "")
		}
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			ex := exact(sub)
			if ex == nil {
				return nil
			}
			if out = cross(out, ex); len(out) > maxExact {
				return nil
			}
		}
		return out
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			ex := exact(sub)
			if ex == nil {
				return nil
			}
			if out = append(out, ex...); len(out) > maxExact {
				return nil
			}
		}
		return out
	}
	return nil
}

// cross returns every a followed by every b.
func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

// nonEmpty returns ns, or nil when one of them is "" (a part that can
// match nothing is no needle).
func nonEmpty(ns []string) []string {
	for _, n := range ns {
		if n == "" {
			return nil
		}
	}
	return ns
}

func shortest(ns []string) int {
	m := len(ns[0])
	for _, n := range ns {
		m = min(m, len(n))
	}
	return m
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
