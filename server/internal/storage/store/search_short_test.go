package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// shortCorpus puts short terms where the trigram lookup has to work for
// them: at a text's start, middle and end, in texts of one and two
// characters, in several cases and scripts, beside LIKE's and FTS5's
// special characters, and in tool calls (never searched).
var shortCorpus = [][]string{
	{"x"},
	{"Qz"},
	{"ab qz cd"},
	{"ends with qz"},
	{"ends with q"},
	{"qz starts"},
	{"mid QZ mid"},
	{"über Über ÜBER"},
	{"数据库连接"},
	{"搜"},
	{"Данные"},
	{"100% sure_thing"},
	{`say "hi"`},
	{`back\slash`},
	{"ǅ digraph"},
	{"\u212A is the Kelvin sign"},
	{"widget qz note"},
	{"first part", "second qz"},
	{"ok", "ok again"},
	{"nothing here"},
	{"tail z"},
}

var shortQueries = []string{
	"x", "q", "qz", "QZ", "z", "Üb", "üb", "ÜB", "数据", "据", "接", "连接", "数", "搜",
	"Да", "ДА", "ые", "%", "_", "0%", `"h`, `i"`, `\s`, "ǅ", "ǆ", "\u212A", "k",
	"qz widget", "widget q", "q z", "zq", "ж", "qz nothing", "e", "e qz", "s t", "n",
	"hi", "ot", "ok", "z tail",
}

// wantShort is what a search must find in shortCorpus: the messages, newest
// first, with a text part holding every term (short ones as LIKE matches
// them: ASCII case folded, other characters exact; long ones as the index
// does).
func wantShort(ids []string, q string) []string {
	var out []string
	for i := len(shortCorpus) - 1; i >= 0; i-- {
		for _, text := range shortCorpus[i] {
			ok := true
			for _, t := range strings.Fields(q) {
				if len([]rune(t)) < 3 {
					ok = ok && strings.Contains(asciiLower(text), asciiLower(t))
				} else {
					ok = ok && regexp.MustCompile(`(?i)`+regexp.QuoteMeta(t)).MatchString(text)
				}
			}
			if ok {
				out = append(out, ids[i])
				break
			}
		}
	}
	return out
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// Every way a query with a short term is answered (the newest parts
// scanned, the older ones looked up by the rarest short term's trigrams
// and tails, or scanned when it is common) finds exactly the messages a
// LIKE over every text part finds, newest first.
func TestSearchShortTermsThroughTheIndex(t *testing.T) {
	s := openTest(t, Options{FlushInterval: time.Hour})
	ctx := context.Background()
	sid := mustSession(t, s, NewSession{}).ID
	var ids []string
	for i, texts := range shortCorpus {
		var parts []Part
		for _, text := range texts {
			parts = append(parts, Part{Kind: PartText, Text: text})
		}
		if i%5 == 0 {
			parts = append(parts, Part{Kind: PartToolCall, ToolCall: &ToolCall{ID: fmt.Sprint("c", i), Name: "grep", Arguments: `{"q":"qz ж zq"}`, Status: ToolDone}})
		}
		m, err := s.AppendMessage(ctx, sid, NewMessage{Role: RoleUser, Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	oldWindow, oldCommon, oldGrams := shortScanWindow, shortCommon, maxTermGrams
	t.Cleanup(func() { shortScanWindow, shortCommon, maxTermGrams = oldWindow, oldCommon, oldGrams })
	ways := []struct {
		name           string
		window, common int64
		grams          int
	}{
		{"all scanned in the window", oldWindow, oldCommon, oldGrams},
		{"all looked up", 0, oldCommon, oldGrams},
		{"a window, then looked up", 7, 1, oldGrams},
		{"a window, then scanned as common", 7, 1 << 40, oldGrams},
		{"no window, scanned as common", 0, 1 << 40, oldGrams},
		{"no window, scanned for too many trigrams", 0, oldCommon, 0},
	}
	for _, w := range ways {
		shortScanWindow, shortCommon, maxTermGrams = w.window, w.common, w.grams
		for _, q := range shortQueries {
			want := wantShort(ids, q)
			hits, err := s.Search(ctx, q, SearchOptions{Limit: 200})
			if err != nil {
				t.Fatalf("%s: %q: %v", w.name, q, err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.MessageID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q found %v, want %v", w.name, q, got, want)
			}
			if len(want) > 1 {
				if hits, _ := s.Search(ctx, q, SearchOptions{Limit: 1}); len(hits) != 1 || hits[0].MessageID != want[0] {
					t.Errorf("%s: %q with limit 1: %+v, want %s", w.name, q, hits, want[0])
				}
			}
		}
	}
	// The comparison is not of empties.
	for q, n := range map[string]int{"qz": 7, "k": 3, "接": 1, "Üb": 1, "%": 1, `i"`: 1, "z tail": 1} {
		if got := len(wantShort(ids, q)); got != n {
			t.Errorf("%q: the reference finds %d, want %d", q, got, n)
		}
	}
}

// The lookups a short term is found by use their indexes: without them
// each is a scan of every part, what they exist to avoid.
func TestSearchShortLookupsUseTheirIndexes(t *testing.T) {
	s := openTest(t, Options{})
	for q, want := range map[string][]string{
		tail2Parts: {"USING INDEX message_parts_tail2"},
		tail1Parts: {"USING INDEX message_parts_tail1", "USING INDEX message_parts_tail2"},
		vocabRange: {"VIRTUAL TABLE INDEX"},
	} {
		rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+q, "qz", 10)
		if q == vocabRange {
			rows, err = s.r.Query(`EXPLAIN QUERY PLAN `+q, "qz", "qz\U0010FFFF")
		}
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, w := range want {
			if !strings.Contains(strings.Join(plan, "\n"), w) {
				t.Errorf("%s\nplan %q lacks %q", q, plan, w)
			}
		}
	}
}

// A store written before migration 0006 gets the tail indexes built from
// its existing text and finds its short terms through the index at once.
func TestSearchShortTermsInAMigratedStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := migrations()
	if err != nil || len(scripts) < 6 {
		t.Fatalf("%d migrations, err %v", len(scripts), err)
	}
	for _, s := range append(scripts[:5:5],
		`INSERT INTO sessions(id, title, created_at, updated_at, message_count, last_seq) VALUES ('s1', 'old', 1, 1, 3, 3)`,
		`INSERT INTO messages(id, session_id, seq, role, status, created_at, updated_at) VALUES
			('m1', 's1', 1, 'user', 'done', 1, 1), ('m2', 's1', 2, 'assistant', 'done', 1, 1), ('m3', 's1', 3, 'user', 'done', 1, 1)`,
		`INSERT INTO message_parts(message_id, idx, kind, text) VALUES ('m1', 0, 'text', 'it ends in QZ'), ('m2', 0, 'text', '接'), ('m3', 0, 'text', 'qz first')`,
		`PRAGMA user_version = 5`) {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	old := shortScanWindow
	shortScanWindow = 0 // every part is reached through the index
	t.Cleanup(func() { shortScanWindow = old })
	for q, want := range map[string][]string{"qz": {"m3", "m1"}, "接": {"m2"}, "Z": {"m3", "m1"}, "zq": nil} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.MessageID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
}
