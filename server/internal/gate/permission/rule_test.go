package permission

import (
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	cases := map[string]Rule{
		"Bash":                      {Tool: "Bash"},
		"Bash(*)":                   {Tool: "Bash"},
		"  Bash( npm test* )  ":     {Tool: "Bash", Specifier: "npm test*"},
		"Bash(npm run test:*)":      {Tool: "Bash", Specifier: "npm run test:*"},
		"Bash(echo (x))":            {Tool: "Bash", Specifier: "echo (x)"},
		"Edit(src/**)":              {Tool: "Edit", Specifier: "src/**"},
		"Read(**)":                  {Tool: "Read", Specifier: "**"},
		"Read(*)":                   {Tool: "Read", Specifier: "*"},
		"Read(//etc/**)":            {Tool: "Read", Specifier: "//etc/**"},
		"Read(~/.ssh/**)":           {Tool: "Read", Specifier: "~/.ssh/**"},
		"WebFetch(domain:Go.dev)":   {Tool: "WebFetch", Specifier: "domain:go.dev"},
		"WebFetch(domain:*.go.dev)": {Tool: "WebFetch", Specifier: "domain:*.go.dev"},
		"WebFetch":                  {Tool: "WebFetch"},
		"mcp__github__create_issue": {Tool: "mcp__github__create_issue"},
		"WebSearch":                 {Tool: "WebSearch"},
	}
	for in, want := range cases {
		got, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got != want {
			t.Errorf("Parse(%q) = %+v, want %+v", in, got, want)
		}
		again, err := Parse(got.String())
		if err != nil || again != got {
			t.Errorf("round trip of %q via %q: %+v %v", in, got.String(), again, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"":                          "empty rule",
		"   ":                       "empty rule",
		"(ls)":                      "no tool name",
		"Bash(":                     "missing its closing parenthesis",
		"Bash(ls":                   "missing its closing parenthesis",
		"Bash()":                    "empty specifier",
		"Bash)":                     "without",
		"Ba sh(ls)":                 "may contain only",
		"1Bash":                     "may contain only",
		"Bash(npm:* test)":          "only allowed at the end",
		"Edit([)":                   "not a valid path pattern",
		"WebFetch(go.dev)":          "WebFetch(domain:example.com)",
		"WebFetch(domain:)":         "not a domain name",
		"WebFetch(domain:http://x)": "not a domain name",
		"Glob(*.go)":                "takes no specifier",
	}
	for in, want := range cases {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("Parse(%q) accepted", in)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %q, want it to mention %q", in, err, want)
		}
		if strings.TrimSpace(in) != "" && !strings.Contains(err.Error(), in) {
			t.Errorf("Parse(%q) error %q does not quote the rule", in, err)
		}
	}
}

func TestWildcard(t *testing.T) {
	cases := []struct {
		p, s string
		want bool
	}{
		{"ls*", "ls", true}, {"ls*", "lsof", true}, {"ls *", "lsof", false},
		{"git * --oneline", "git log --oneline", true}, {"git * --oneline", "git log -p", false},
		{"*test*", "npm test", true}, {"a*b*c", "aXbYc", true}, {"a*b*c", "aXbY", false},
		{"", "", true}, {"", "x", false}, {"**", "", true},
	}
	for _, c := range cases {
		if got := wildcard(c.p, c.s); got != c.want {
			t.Errorf("wildcard(%q, %q) = %v", c.p, c.s, got)
		}
	}
}
