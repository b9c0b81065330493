// Command storebench measures the conversation store on a real database
// file and checks the figures against GoVibe's budgets. Ratios compare
// figures measured in the same run, so a slow machine does not hide a
// scaling problem. Exit status 1 means a budget was missed.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

func main() {
	samples := flag.Int("samples", 100, "timed writes per session size")
	searchSessions := flag.Int("search-sessions", 1000, "sessions in the session/search corpus")
	searchMessages := flag.Int("search-messages", 100000, "messages in the session/search corpus (0 skips it; the issue 17 goal is 1,000,000)")
	doc := flag.Int("doc", 0, "write an export document of this many messages to -out and exit (for `govibe session import`)")
	out := flag.String("out", "", "where -doc writes")
	searchOnly := flag.Bool("search-only", false, "measure session/search only")
	searchDB := flag.String("search-db", "", "keep the session/search corpus in this file, and reuse it when it exists (it must have been written with the same -search-sessions and -search-messages)")
	flag.Parse()
	if *doc > 0 {
		if err := writeDoc(*doc, *out); err != nil {
			fmt.Fprintln(os.Stderr, "storebench:", err)
			os.Exit(2)
		}
		return
	}
	if !*searchOnly {
		if err := run(*samples); err != nil {
			fmt.Fprintln(os.Stderr, "storebench:", err)
			os.Exit(2)
		}
	}
	if *searchMessages > 0 {
		if err := runSearch(*searchSessions, *searchMessages, *searchDB); err != nil {
			fmt.Fprintln(os.Stderr, "storebench: search:", err)
			os.Exit(2)
		}
	}
	if failed {
		os.Exit(1)
	}
}

var failed bool

func check(name string, ok bool, figure, budget string) {
	verdict := "ok"
	if !ok {
		verdict = "OVER BUDGET"
		failed = true
	}
	fmt.Printf("%-52s %14s   budget %-12s %s\n", name, figure, budget, verdict)
}

func run(samples int) error {
	dir, err := os.MkdirTemp("", "storebench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(filepath.Join(dir, "bench.db"), store.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := context.Background()
	fmt.Printf("storebench: %s, synchronous=FULL, %d samples per figure\n\n", runtime.Version(), samples)

	// Persisting one message at three session sizes. A few untimed writes
	// first warm the connection and page cache.
	if warm, err := fill(ctx, s, 0); err != nil {
		return err
	} else {
		for i := 0; i < 10; i++ {
			if _, err := s.AppendMessage(ctx, warm.ID, message(i)); err != nil {
				return err
			}
		}
	}
	// Samples are interleaved across the sizes so that load from other
	// processes on the machine hits all three alike.
	sizes := []int{10, 1000, 10000}
	sessions := map[int]string{}
	times := map[int][]time.Duration{}
	for _, n := range sizes {
		sess, err := fill(ctx, s, n)
		if err != nil {
			return err
		}
		sessions[n] = sess.ID
	}
	big := sessions[10000]
	for i := 0; i < samples; i++ {
		for _, n := range sizes {
			m := message(i)
			start := time.Now()
			if _, err := s.AppendMessage(ctx, sessions[n], m); err != nil {
				return err
			}
			times[n] = append(times[n], time.Since(start))
		}
	}
	persist := map[int]time.Duration{}
	for _, n := range sizes {
		persist[n] = median(times[n])
	}
	for _, n := range []int{10, 1000, 10000} {
		fmt.Printf("%-52s %14s\n", fmt.Sprintf("persist one message, %d already in session", n), persist[n])
	}
	ratio := float64(persist[10000]) / float64(persist[10])
	check("  ratio 10,000 / 10", ratio <= 1.5, fmt.Sprintf("%.2fx", ratio), "<= 1.5x")

	// Newest page of the 10,000-message session.
	pageTimes := make([]time.Duration, 30)
	for i := range pageTimes {
		start := time.Now()
		page, err := s.LoadMessages(ctx, big, 0, 100)
		if err != nil {
			return err
		}
		pageTimes[i] = time.Since(start)
		if len(page.Messages) != 100 {
			return fmt.Errorf("page has %d messages", len(page.Messages))
		}
	}
	pt := median(pageTimes)
	check("load newest 100 of 10,000 messages", pt < 50*time.Millisecond, pt.String(), "< 50ms")

	// Listing 1,000 sessions.
	for i := 0; i < 996; i++ {
		if _, err := s.CreateSession(ctx, store.NewSession{Title: fmt.Sprint("session ", i), Model: "deepseek-chat"}); err != nil {
			return err
		}
	}
	if err := listFigures(ctx, s, 30); err != nil {
		return err
	}

	// Memory with the whole 10,000-message session held in memory.
	var all []store.Message
	before := int64(0)
	for {
		page, err := s.LoadMessages(ctx, big, before, 1000)
		if err != nil {
			return err
		}
		all = append(page.Messages, all...)
		if !page.HasMore {
			break
		}
		before = page.NextBefore
	}
	llmTrack, err := s.LLMMessages(ctx, big)
	if err != nil {
		return err
	}
	runtime.GC()
	rss, err := rssBytes()
	if err != nil {
		return err
	}
	check(fmt.Sprintf("process RSS, %d-message session loaded", len(all)), rss < 150<<20, fmt.Sprintf("%.1f MB", float64(rss)/(1<<20)), "< 150 MB")
	runtime.KeepAlive(all)
	runtime.KeepAlive(llmTrack)
	return nil
}

// message is a realistic assistant message: prose, a tool call and its
// result, about 1.5 KB.
func message(i int) store.NewMessage {
	call := fmt.Sprint("call-", i)
	return store.NewMessage{Role: store.RoleAssistant, Parts: []store.Part{
		{Kind: store.PartText, Text: strings.Repeat(fmt.Sprintf("Message %d explains the change it is about to make. ", i), 12)},
		{Kind: store.PartToolCall, ToolCall: &store.ToolCall{ID: call, Name: "edit", Arguments: `{"path":"server/main.go","old":"a","new":"b"}`, Status: store.ToolDone}},
		{Kind: store.PartToolResult, ToolResult: &store.ToolResult{ToolCallID: call, OK: true, Output: strings.Repeat("line of output\n", 20)}},
	}}
}

// fill creates a session of n messages (and an LLM track of n/2 entries)
// through Import, which writes it in one transaction instead of n fsyncs.
func fill(ctx context.Context, s *store.Store, n int) (store.Session, error) {
	now := time.Now()
	doc := store.Document{Format: store.ExportFormat, Version: store.ExportVersion,
		Session: store.Session{Title: fmt.Sprint("size ", n), Model: "deepseek-chat", Kind: store.KindChat, Status: store.SessionActive, Created: now, Updated: now}}
	for i := 0; i < n; i++ {
		m := message(i)
		doc.Messages = append(doc.Messages, store.Message{ID: fmt.Sprint("m", i), Seq: int64(i + 1), Role: m.Role, Status: store.StatusDone,
			Parts: m.Parts, Created: now, Updated: now})
		if i%2 == 0 {
			doc.LLM = append(doc.LLM, store.LLMEntry{Position: len(doc.LLM), Message: llm.Message{Role: llm.RoleAssistant, Content: "summary of step"}})
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return store.Session{}, err
	}
	return s.Import(ctx, data)
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func rssBytes() (int64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("VmRSS not found in /proc/self/status")
}

// writeDoc writes a long session as an export document: user questions and
// assistant answers whose tool cards carry up to 8.5 KB of output, the
// shape of the long-session benchmark in make bench.
func writeDoc(n int, path string) error {
	if path == "" {
		return fmt.Errorf("-doc needs -out")
	}
	now := time.Now()
	doc := store.Document{Format: store.ExportFormat, Version: store.ExportVersion,
		Session: store.Session{Title: fmt.Sprintf("Long session (%d messages)", n), Model: "scripted", Kind: store.KindChat, Status: store.SessionActive, Created: now, Updated: now}}
	for i := 0; i < n; i++ {
		var m store.NewMessage
		if i%2 == 0 {
			m = store.NewMessage{Role: store.RoleUser, Parts: []store.Part{{Kind: store.PartText, Text: fmt.Sprintf("Question %d: what does step %d change?", i, i)}}}
		} else {
			m = message(i)
			// Outputs from 0.3 KB to 8.5 KB.
			m.Parts[2].ToolResult.Output = strings.Repeat("line of output\n", 20+(i*37)%550)
		}
		doc.Messages = append(doc.Messages, store.Message{ID: fmt.Sprint("m", i), Seq: int64(i + 1), Role: m.Role, Status: store.StatusDone,
			Parts: m.Parts, Created: now, Updated: now})
		doc.LLM = append(doc.LLM, store.LLMEntry{Position: len(doc.LLM), Message: llm.Message{Role: llm.RoleUser, Content: "step"}})
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
