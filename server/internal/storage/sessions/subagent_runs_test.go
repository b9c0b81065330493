package sessions_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// A sub-agent run longer than one page comes back with its newest 200
// messages and the count of the earlier ones, which session/load on the
// child's id pages in; a short run has nothing hidden.
func TestLoadCountsASubAgentRunsEarlierMessages(t *testing.T) {
	x := enginetest.New(t, nil)
	ctx := context.Background()
	st := x.E.Store
	parent, err := st.CreateSession(ctx, store.NewSession{Title: "p", Kind: store.KindChat})
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := st.AppendMessage(ctx, parent.ID, store.NewMessage{Role: store.RoleAssistant, Parts: []store.Part{{Kind: store.PartText, Text: "calling"}}})
	if err != nil {
		t.Fatal(err)
	}
	child := func(n int) string {
		c, err := st.CreateSession(ctx, store.NewSession{ParentID: parent.ID, Kind: store.KindSubagent, Hidden: true, ParentMessageID: anchor.ID, ParentCallID: fmt.Sprint("c", n)})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			role := store.RoleAssistant
			if i == 0 {
				role = store.RoleUser
			}
			if _, err := st.AppendMessage(ctx, c.ID, store.NewMessage{Role: role, SubAgentTag: "investigate", Parts: []store.Part{{Kind: store.PartText, Text: fmt.Sprint("step ", i)}}}); err != nil {
				t.Fatal(err)
			}
		}
		return c.ID
	}
	long, short := child(250), child(3)
	l, err := x.E.Sessions.Load(ctx, parent.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	for _, r := range l.SubAgents {
		got[r.Session.ID] = [2]int{len(r.Messages), r.Earlier}
	}
	if got[long] != [2]int{200, 50} || got[short] != [2]int{3, 0} {
		t.Fatalf("runs (messages, earlier): long %v, short %v", got[long], got[short])
	}
	// The earlier messages are one page away, oldest first.
	first := l.SubAgents[0].Messages[0]
	if l.SubAgents[0].Session.ID != long {
		first = l.SubAgents[1].Messages[0]
	}
	older, err := x.E.Sessions.Load(ctx, long, first.Seq, 200)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(older.Page.Messages); n != 50 || older.Page.HasMore || older.Page.Messages[0].Parts[0].Text != "step 0" {
		t.Fatalf("older page: %d messages, hasMore %v", n, older.Page.HasMore)
	}
}
