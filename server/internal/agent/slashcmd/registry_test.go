package slashcmd

import (
	"reflect"
	"testing"
)

type testHandler func(args string) string

func testRegistry(t *testing.T) *registry[testHandler] {
	t.Helper()
	r := newRegistry[testHandler]()
	for _, c := range []command[testHandler]{
		{Name: "compact", Description: "Summarise earlier messages", Handler: func(string) string { return "compact" }},
		{Name: "btw", Aliases: []string{`\btw`}, Description: "Side question", ArgumentHint: "<question>", Handler: func(a string) string { return "btw:" + a }},
	} {
		if err := r.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestMatch(t *testing.T) {
	r := testRegistry(t)
	cases := []struct {
		text, want string // want "" = no match
	}{
		{"/compact", "compact"},
		{"  /compact\n", "compact"},
		{"/COMPACT", "compact"},
		{"/compact now", ""}, // compact takes no arguments
		{"/compactly", ""},
		{"compact", ""},
		{"/btw what is this?", "btw:what is this?"},
		{`\btw  spaced`, "btw:spaced"},
		{"/BTW\tx", "btw:x"},
		{"/btw", "btw:"},
		{"/btwx", ""},
		{"/unknown", ""},
		{"", ""},
		{"/", ""},
	}
	for _, c := range cases {
		cmd, args, ok := r.Match(c.text)
		got := ""
		if ok {
			got = cmd.Handler(args)
		}
		if got != c.want {
			t.Errorf("Match(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestLookupAndList(t *testing.T) {
	r := testRegistry(t)
	if c, ok := r.Lookup("/btw"); !ok || c.ArgumentHint != "<question>" {
		t.Fatalf("Lookup(/btw) = %+v, %v", c, ok)
	}
	if _, ok := r.Lookup("nope"); ok {
		t.Fatal("Lookup found an unregistered command")
	}
	want := []Info{{Name: "btw", Description: "Side question", ArgumentHint: "<question>"}, {Name: "compact", Description: "Summarise earlier messages"}}
	if got := r.List(); !reflect.DeepEqual(got, want) {
		t.Fatalf("List = %+v, want %+v", got, want)
	}
}

func TestRegisterRejectsBadAndDuplicateNames(t *testing.T) {
	r := testRegistry(t)
	for _, c := range []command[testHandler]{{Name: ""}, {Name: "two words"}, {Name: "/Compact"}, {Name: "other", Aliases: []string{`\BTW`}}} {
		if err := r.Register(c); err == nil {
			t.Errorf("Register(%q, %v) accepted", c.Name, c.Aliases)
		}
	}
	// A refused registration changes nothing.
	if _, ok := r.Lookup("other"); ok {
		t.Fatal("a refused command was registered")
	}
	if len(r.List()) != 2 {
		t.Fatalf("List after refusals: %+v", r.List())
	}
	if err := r.Register(command[testHandler]{Name: "Help"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Lookup("help"); !ok || r.List()[2].Name != "help" {
		t.Fatalf("Register(Help) then List: %+v", r.List())
	}
}
