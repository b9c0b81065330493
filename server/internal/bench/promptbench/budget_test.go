package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestHelloFitsThePromptBudget keeps the prompt budget in the
// test suite, not only in make bench: with every prompt-affecting
// capability on, "hello" with a small AGENTS.md stays within 3000 tokens,
// the tools a turn rarely needs are behind their one entry, a large
// AGENTS.md changes neither the system prompt nor the tools (it goes in
// the first user message), and the second request repeats the first
// one's prefix.
func TestHelloFitsThePromptBudget(t *testing.T) {
	small, err := measure(strings.Repeat("Run `make test` before committing. Use gofmt.\n", 4), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if small.total() > Budget {
		t.Fatalf("the hello request is %d tokens (system %d, tools %d, user %d), over the %d budget", small.total(), small.system, small.tools, small.user, Budget)
	}
	if !small.stable {
		t.Fatal("the second request changed the system prompt or tools")
	}
	entry := ""
	for _, d := range small.defs {
		if tools.BuiltinTraits(d.Name).Has(tools.Deferred) {
			t.Errorf("the deferred %s is offered with its schema", d.Name)
		}
		if d.Name == tools.DeferredEntryName {
			entry = d.Description
		}
	}
	for _, x := range tools.Builtin() {
		if x.Traits().Has(tools.Deferred) && !strings.Contains(entry, "\n- "+x.Name()+"(") {
			t.Errorf("%s's entry does not list %s:\n%s", tools.DeferredEntryName, x.Name(), entry)
		}
	}
	large, err := measure(strings.Repeat("- Convention: keep handlers small, name files after what they hold, test every bad input.\n", 360), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if large.prompt != small.prompt || large.toolsJSON != small.toolsJSON {
		t.Fatal("a large AGENTS.md changed the system prompt or tools")
	}
	if large.user <= small.user+5000 {
		t.Fatalf("the large AGENTS.md is not in the first user message: %d vs %d tokens", large.user, small.user)
	}
	t.Logf("hello: %d tokens (system %d, tools %d in %d definitions, user %d)", small.total(), small.system, small.tools, small.count, small.user)
}

// TestReadonlyAndPlanWithinTheBudget: the readonly profile and Plan mode
// offer fewer tools, so they stay within the budget too, and each is
// byte-stable; Plan mode offers no deferred tool that writes.
func TestReadonlyAndPlanWithinTheBudget(t *testing.T) {
	agents := strings.Repeat("Run `make test` before committing. Use gofmt.\n", 4)
	for _, v := range variants[1:3] {
		m, err := measure(agents, v.profile, v.mode)
		if err != nil {
			t.Fatal(err)
		}
		if m.total() > Budget || !m.stable {
			t.Errorf("%s: %d tokens, stable %v", v.name, m.total(), m.stable)
		}
		if strings.Contains(m.toolsJSON, "create_directory") || strings.Contains(m.toolsJSON, "delete_file") {
			t.Errorf("%s offers a deferred tool that writes: %s", v.name, m.toolsJSON)
		}
		var names []string
		for _, d := range m.defs {
			names = append(names, d.Name)
		}
		b, _ := json.Marshal(names)
		t.Logf("%s: %d tokens (system %d, tools %d: %s)", v.name, m.total(), m.system, m.tools, b)
	}
}
