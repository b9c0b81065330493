package wire

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"go.uber.org/zap"
)

// discardRWC never yields input and drops output: the cost measured is
// encoding and framing alone.
type discardRWC struct{ stop chan struct{} }

func (d discardRWC) Read([]byte) (int, error)    { <-d.stop; return 0, io.EOF }
func (d discardRWC) Write(b []byte) (int, error) { return len(b), nil }
func (d discardRWC) Close() error                { return nil }

// BenchmarkNotify is one chat/event textDelta notification through
// Conn.Notify, against jsonrpc2.Conn.Notify over the same stream as the
// reference. ours/jsonrpc2 is the ratio of the two, measured in the same
// run.
func BenchmarkNotify(b *testing.B) {
	stop := make(chan struct{})
	defer close(stop)
	rwc := discardRWC{stop}
	c := Serve(context.Background(), rwc, func(context.Context, string, json.RawMessage) (any, error) { return nil, nil }, zap.NewNop())
	ref := jsonrpc2.NewConn(context.Background(), newStream(rwc, nil), jsonrpc2.HandlerWithError(
		func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	ev := &event{SessionID: "01JBENCHSESSION0000000000", Seq: 1, Kind: "textDelta", Text: "a"}
	ctx := context.Background()
	var ours, theirs time.Duration
	b.ReportAllocs()
	for b.Loop() {
		ev.Seq++
		t0 := time.Now()
		if err := c.Notify(ctx, "chat/event", ev); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(t0)
		t1 := time.Now()
		if err := ref.Notify(ctx, "chat/event", ev); err != nil {
			b.Fatal(err)
		}
		theirs += time.Since(t1)
	}
	b.ReportMetric(float64(ours)/float64(b.N), "ours-ns/notify")
	b.ReportMetric(float64(theirs)/float64(b.N), "jsonrpc2-ns/notify")
	b.ReportMetric(float64(ours)/float64(theirs), "ours/jsonrpc2")
}
