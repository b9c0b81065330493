package review

import (
	"strings"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	ok := []struct {
		name, in string
		approved bool
		problems int
		sev      string
	}{
		{"plain approval", `{"approved": true, "problems": []}`, true, 0, ""},
		{"approval with warning", `{"approved": true, "problems": [{"severity":"warning","message":"m"}]}`, true, 1, SeverityWarning},
		{"rejection", `{"approved": false, "problems": [{"severity":"error","message":"missing tests","location":"item 3"}], "suggestion":"add a test item"}`, false, 1, SeverityError},
		{"fenced", "Here you go:\n```json\n{\"approved\": false, \"problems\": [{\"severity\":\"error\",\"message\":\"x\"}]}\n```\n", false, 1, SeverityError},
		{"prose around", `I think {"approved": true} is right.`, true, 0, ""},
		{"severity alias", `{"approved": false, "problems": [{"severity":"Critical","message":"x"}]}`, false, 1, SeverityError},
		{"numeric location", `{"approved": false, "problems": [{"severity":"high","message":"x","location":12}]}`, false, 1, SeverityError},
	}
	for _, c := range ok {
		v, err := ParseVerdict(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if v.Approved != c.approved || len(v.Problems) != c.problems || (c.problems > 0 && v.Problems[0].Severity != c.sev) {
			t.Errorf("%s: got %+v", c.name, v)
		}
	}
	bad := []struct{ name, in, want string }{
		{"empty", "  ", "empty"},
		{"no json", "looks fine to me", "valid JSON object"},
		{"no approved", `{"problems": []}`, `"approved"`},
		{"approved not bool", `{"approved": "yes"}`, "required shape"},
		{"rejection without problems", `{"approved": false, "problems": []}`, "at least one problem"},
		{"unknown severity", `{"approved": false, "problems": [{"severity":"purple","message":"x"}]}`, `"purple"`},
		{"empty message", `{"approved": false, "problems": [{"severity":"error","message":" "}]}`, "message is empty"},
		{"approved with error", `{"approved": true, "problems": [{"severity":"error","message":"broken"}]}`, `severity "error"`},
		{"truncated", `{"approved": true, "problems": [`, "valid JSON object"},
	}
	for _, c := range bad {
		if _, err := ParseVerdict(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestParseRewrite(t *testing.T) {
	rw, err := ParseRewrite("```json\n{\"command\": \"git --no-pager log -n 20\", \"reason\": \"no pager\"}\n```")
	if err != nil || rw.Command != "git --no-pager log -n 20" || rw.Reason != "no pager" {
		t.Fatalf("%+v %v", rw, err)
	}
	for _, in := range []string{`{"reason": "x"}`, `{"command": "  "}`, `{"command": 3}`, `nothing`} {
		if _, err := ParseRewrite(in); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}

func TestFormatAndBlocking(t *testing.T) {
	ps := []Problem{{Severity: SeverityWarning, Message: "w"}, {Severity: SeverityError, Message: "e", Location: "a.go:3"}}
	if !Blocking(ps) || Blocking(ps[:1]) {
		t.Fatal("Blocking")
	}
	if got := Format(ps); got != "- [warning] w\n- [error] e (a.go:3)" {
		t.Fatalf("%q", got)
	}
}
