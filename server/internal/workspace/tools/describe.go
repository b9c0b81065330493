package tools

import "strings"

// A description may name another tool only where the run offers it: a
// clause written {{name: text}} (or {{a,b: text}}) is kept, as text, when
// every tool it names is among the run's tools, and dropped otherwise, so
// a run without edit is never told to prefer it. Describe resolves them;
// every place that sends tool definitions to a model uses it.

// Describe is t's description as sent to a run offered ts.
func Describe(t Tool, ts []Tool) string {
	return DescribeAmong(t.Description(), func(name string) bool {
		for _, x := range ts {
			if x.Name() == name {
				return true
			}
			// A tool behind the deferred entry is offered too: the
			// model reaches it in one more step, so a clause naming it
			// stays true.
			if e, ok := x.(*deferredEntry); ok && e.byName[name] != nil {
				return true
			}
		}
		return false
	})
}

// DescribeAmong resolves desc's clauses with has, which says whether a
// tool is offered. A malformed clause (no closing braces, no colon) is
// left as written: the test over every description finds it.
func DescribeAmong(desc string, has func(name string) bool) string {
	if !strings.Contains(desc, "{{") {
		return desc
	}
	var b strings.Builder
	rest := desc
	for {
		i := strings.Index(rest, "{{")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		j := strings.Index(rest[i:], "}}")
		colon := strings.Index(rest[i:], ":")
		if j < 0 || colon < 0 || colon > j {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		names, text := rest[i+2:i+colon], strings.TrimPrefix(rest[i+colon+1:i+j], " ")
		keep := true
		for _, n := range strings.Split(names, ",") {
			keep = keep && has(strings.TrimSpace(n))
		}
		if keep {
			b.WriteString(text)
		}
		rest = rest[i+j+2:]
	}
	// A dropped clause may leave a doubled or trailing space.
	out := strings.ReplaceAll(b.String(), "  ", " ")
	out = strings.ReplaceAll(out, " \n", "\n")
	return strings.TrimSpace(out)
}
