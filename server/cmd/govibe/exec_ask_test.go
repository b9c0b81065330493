package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/tools"
)

func plainTr(s string, a ...any) string { return fmt.Sprintf(s, a...) }

func TestTerminalAskerReplies(t *testing.T) {
	q := tools.HumanQuestion{Question: "Which database?", Options: []string{"sqlite", "postgres"}}
	cases := []struct {
		in   string
		want tools.HumanReply
	}{
		{"use mysql\n", tools.HumanReply{Reply: "use mysql"}},
		{"2\n", tools.HumanReply{Reply: "postgres"}},
		{"9\n", tools.HumanReply{Reply: "9"}}, // not a choice: taken as text
		{"/done 1\n", tools.HumanReply{Reply: "sqlite", Done: true}},
		{"\n", tools.HumanReply{Cancelled: true}},
		{"", tools.HumanReply{Cancelled: true}}, // EOF
	}
	for _, c := range cases {
		var out strings.Builder
		got, err := newTerminalAsker(strings.NewReader(c.in), &out, plainTr).ask(context.Background(), q)
		if err != nil || got != c.want {
			t.Errorf("input %q: got %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if !strings.Contains(out.String(), "Which database?") || !strings.Contains(out.String(), "2) postgres") {
			t.Errorf("question not shown: %q", out.String())
		}
	}
}
