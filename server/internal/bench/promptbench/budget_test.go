package main

import (
	"strings"
	"testing"
)

// TestHelloFitsThePromptBudget keeps the prompt budget in the
// test suite, not only in make bench: with every prompt-affecting
// capability on, "hello" with a small AGENTS.md stays within 5000 tokens,
// a large AGENTS.md changes neither the system prompt nor the tools (it
// goes in the first user message), and the second request repeats the
// first one's prefix.
func TestHelloFitsThePromptBudget(t *testing.T) {
	small, err := measure(strings.Repeat("Run `make test` before committing. Use gofmt.\n", 4), "")
	if err != nil {
		t.Fatal(err)
	}
	if small.total() > 5000 {
		t.Fatalf("the hello request is %d tokens (system %d, tools %d, user %d), over the 5000 budget", small.total(), small.system, small.tools, small.user)
	}
	if !small.stable {
		t.Fatal("the second request changed the system prompt or tools")
	}
	large, err := measure(strings.Repeat("- Convention: keep handlers small, name files after what they hold, test every bad input.\n", 360), "")
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
