package main

import (
	"fmt"
	"github.com/govibe/govibe/server/internal/bench/procstat"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/govibe/govibe/protocol"
)

type longOptions struct{ messages, subagents, large int }

const (
	markLarge = "LARGE-READ"
	markSub   = "SUB-AGENT"
	// largeResult is the size of the file each large read returns.
	largeResult = 200 << 10
)

// longAnswer plays the model of the long session: a turn marked LARGE-READ
// reads big.txt, one marked SUB-AGENT runs investigate (whose child lists
// the files and completes), everything else is answered in a line.
func longAnswer(req modelRequest) modelReply {
	msgs := req.Messages
	if len(msgs) == 0 {
		return modelReply{text: "ok"}
	}
	last := msgs[len(msgs)-1]
	if msgs[0].Role == "system" && strings.HasPrefix(msgs[0].text(), "You are a codebase investigator") {
		if last.Role == "tool" {
			return modelReply{toolName: "complete_task", toolArgs: `{"report":{"SummaryOfFindings":"the workspace holds big.txt"}}`}
		}
		return modelReply{toolName: "list_files", toolArgs: `{}`}
	}
	if last.Role != "user" {
		return modelReply{text: "Done."}
	}
	switch t := last.text(); {
	case strings.Contains(t, markLarge):
		return modelReply{toolName: "read_file", toolArgs: `{"filePath":"big.txt"}`}
	case strings.Contains(t, markSub):
		return modelReply{toolName: "investigate", toolArgs: `{"objective":"find what the workspace holds"}`}
	}
	return modelReply{text: "Noted; nothing to change."}
}

// benchLong drives one session to o.messages messages (a user message and
// a reply a turn) and reads the sidecar's RSS after each thousand.
func benchLong(bin string, o longOptions) (bool, error) {
	tmp, err := os.MkdirTemp("", "sessionbench-long-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	ws := filepath.Join(tmp, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return false, err
	}
	line := "the quick brown fox jumps over the lazy dog, a line of a large file\n"
	if err := os.WriteFile(filepath.Join(ws, "big.txt"), []byte(strings.Repeat(line, largeResult/len(line))), 0o644); err != nil {
		return false, err
	}
	model, err := startFakeModel(longAnswer)
	if err != nil {
		return false, err
	}
	defer model.close()
	// A 64k window, as DeepSeek's and many hosted models': the session
	// compacts again and again, as a long one does, and a request stays
	// the size a real one is.
	sc, err := startSidecar(bin, ws, filepath.Join(tmp, "state"), model.url, map[string]any{"contextWindow": 64000})
	if err != nil {
		return false, err
	}
	defer sc.close()

	turns := o.messages / 2
	var (
		sid   string
		rss   []int64
		large int
		subs  int
	)
	start := time.Now()
	for t := 1; t <= turns; t++ {
		text := fmt.Sprintf("message %d: keep going", t)
		// Spread evenly; the sub-agent runs half a period later, and a
		// turn that is due both runs the sub-agent and the read follows.
		switch {
		case subs < min(o.subagents, (2*t*o.subagents+turns)/(2*turns)):
			text += " " + markSub
			subs++
		case large < t*o.large/turns:
			text += " " + markLarge
			large++
		}
		id, err := sc.send(sid, text)
		if err != nil {
			return false, fmt.Errorf("turn %d: %w", t, err)
		}
		sid = id
		if (2*t)%1000 == 0 {
			r, err := procstat.RSS(sc.pid())
			if err != nil {
				return false, err
			}
			rss = append(rss, r)
			fmt.Printf("  %5d messages  RSS %s  (%s)\n", 2*t, mbs(r), time.Since(start).Round(time.Second))
		}
	}
	var list protocol.SessionListResult
	if err := sc.call("session/list", protocol.SessionListParams{}, &list); err != nil {
		return false, fmt.Errorf("session/list: %w", err)
	}
	count := -1
	for _, s := range list.Sessions {
		if s.ID == sid {
			count = s.MessageCount
		}
	}
	second, lastRSS, peak := rss[1], rss[len(rss)-1], int64(0)
	for _, r := range rss {
		peak = max(peak, r)
	}
	flat := float64(lastRSS) <= 1.2*float64(second)
	under := peak < 300<<20
	fmt.Printf("%-34s %d messages (store: %d), %d sub-agent runs, %d large results (%d KB), %s\n", "session.long",
		2*turns, count, subs, large, largeResult>>10, time.Since(start).Round(time.Second))
	fmt.Printf("%-34s last thousand %s vs second %s = %.2fx  goal <= 1.2x  %s\n", "session.long_rss_growth",
		mbs(lastRSS), mbs(second), float64(lastRSS)/float64(second), verdict(flat))
	fmt.Printf("%-34s peak %s  goal < 300MB  %s\n", "session.long_rss_peak", mbs(peak), verdict(under))
	return flat && under, nil
}

func mbs(n int64) string { return fmt.Sprintf("%.1fMB", float64(n)/(1<<20)) }
