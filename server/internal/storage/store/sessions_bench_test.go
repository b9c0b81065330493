package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkListSessionsEmpty is session/list's store cost on an empty
// store (what rpcbench's roundtrip_session_list pays), against the same
// query prepared afresh on every call as the reference. cached/unprepared
// is the ratio of the two, measured in the same run.
func BenchmarkListSessionsEmpty(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "ws.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	q := `SELECT ` + sessionCols + ` FROM sessions WHERE parent_id IS NULL AND hidden = 0 ORDER BY updated_at DESC, id DESC LIMIT ?`
	var cached, unprepared time.Duration
	for b.Loop() {
		t0 := time.Now()
		page, err := s.ListSessions(ctx, ListOptions{})
		if err != nil || len(page.Sessions) != 0 {
			b.Fatalf("%v %v", page, err)
		}
		cached += time.Since(t0)

		t1 := time.Now()
		rows, err := s.r.QueryContext(ctx, q, 51)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			if _, err := scanSession(rows); err != nil {
				b.Fatal(err)
			}
		}
		if err := rows.Close(); err != nil {
			b.Fatal(err)
		}
		unprepared += time.Since(t1)
	}
	b.ReportMetric(float64(cached)/float64(b.N)/1e3, "µs/list")
	b.ReportMetric(float64(cached)/float64(unprepared), "cached/unprepared")
}
