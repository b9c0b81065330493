package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/bench/benchclient"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// streamRun is one pass of n deltas.
type streamRun struct {
	elapsed time.Duration
	// events is how many textDelta notifications arrived; the sidecar may
	// merge deltas under backpressure, so chars is the real payload count.
	events, chars int
	// firstDelta and lastDelta are when the first and last textDelta
	// arrived, from the same start as elapsed: they split elapsed into the
	// turn's set-up, the streaming itself and the turn's wrap-up.
	firstDelta, lastDelta time.Duration
}

// deltaText is n distinct ASCII characters in a pattern that makes a lost,
// doubled or reordered delta visible in the joined text.
func deltaText(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		b.WriteByte(alphabet[(i+i/len(alphabet))%len(alphabet)])
	}
	return b.String()
}

func scriptedReply(text string) scripted.Reply {
	return scripted.Reply{Text: text, ChunkSize: 1,
		Usage: &scripted.Usage{PromptTokens: 1000, CompletionTokens: int64(len(text))}}
}

// streamThroughSidecar sends one chat/send whose reply is text in one-char
// chunks and reads every notification until the turn finishes, timing
// chat/send written → turnFinished read.
func streamThroughSidecar(c *benchclient.Peer, model *scripted.Server, text string) (streamRun, error) {
	model.Enqueue(scriptedReply(text))
	req := c.NewRequest("chat/send", protocol.ChatSendParams{Text: "stream the benchmark text"})
	var (
		run    streamRun
		joined strings.Builder
		m      benchclient.Message
		ev     protocol.ChatEvent
	)
	joined.Grow(len(text))
	t0 := time.Now()
	if err := c.Send(req); err != nil {
		return run, err
	}
	for {
		if err := c.Recv(&m); err != nil {
			return run, c.Wrap(err)
		}
		switch {
		case m.Method == "" && m.ID != nil && *m.ID == *req.ID:
			if m.Error != nil {
				return run, fmt.Errorf("chat/send failed: %s", m.Error.Message)
			}
			continue
		case m.Method != "" && m.ID != nil:
			if err := c.Answer(m); err != nil {
				return run, err
			}
			continue
		case m.Method != "chat/event":
			continue
		}
		ev = protocol.ChatEvent{}
		if err := json.Unmarshal(m.Params, &ev); err != nil {
			return run, fmt.Errorf("chat/event params: %w", err)
		}
		switch ev.Kind {
		case kinds.TextDelta:
			run.lastDelta = time.Since(t0)
			if run.events == 0 {
				run.firstDelta = run.lastDelta
			}
			run.events++
			run.chars += utf8.RuneCountInString(ev.Text)
			joined.WriteString(ev.Text)
		case kinds.Retry:
			return run, fmt.Errorf("the model stream was retried; the figure would count text twice")
		case kinds.TurnFinished:
			run.elapsed = time.Since(t0)
			if ev.Status != "done" {
				msg := ""
				if ev.Error != nil {
					msg = ": " + ev.Error.Message
				}
				return run, fmt.Errorf("turn finished with status %q%s", ev.Status, msg)
			}
			if joined.String() != text {
				return run, fmt.Errorf("delivered text differs from the model's: %d of %d chars, first difference at %d",
					run.chars, utf8.RuneCountInString(text), firstDiff(joined.String(), text))
			}
			return run, nil
		}
	}
}

// pushThroughPipe is the reference: the same number of chat/event
// notifications, marshalled one by one as the sidecar does, through cat and
// decoded exactly as streamThroughSidecar decodes them.
func pushThroughPipe(echo *benchclient.Peer, text string) (streamRun, error) {
	n := utf8.RuneCountInString(text)
	var (
		run streamRun
		m   benchclient.Message
		ev  protocol.ChatEvent
	)
	errc := make(chan error, 1)
	t0 := time.Now()
	go func() {
		ev := protocol.ChatEvent{SessionID: "01JBENCHSESSION0000000000", TurnID: "01JBENCHTURN000000000000000",
			Kind: kinds.TextDelta, MessageID: "01JBENCHMESSAGE00000000000"}
		i := 0
		for _, r := range text {
			i++
			ev.Seq, ev.Text = int64(i), string(r)
			if err := echo.Send(benchclient.Notification("chat/event", &ev)); err != nil {
				errc <- err
				return
			}
		}
		errc <- nil
	}()
	for run.events < n {
		if err := echo.Recv(&m); err != nil {
			return run, echo.Wrap(err)
		}
		ev = protocol.ChatEvent{}
		if err := json.Unmarshal(m.Params, &ev); err != nil {
			return run, err
		}
		if ev.Kind == kinds.TextDelta {
			run.events++
			run.chars += utf8.RuneCountInString(ev.Text)
		}
	}
	run.elapsed = time.Since(t0)
	return run, <-errc
}

// streamModelAlone reads the scripted model's SSE stream for text with a
// plain HTTP client: the floor under the sidecar's figure, since every
// delta first has to come out of the model server.
func streamModelAlone(url, text string) (streamRun, error) {
	var run streamRun
	body, _ := json.Marshal(map[string]any{
		"model": "scripted-model", "stream": true,
		"messages": []map[string]string{{"role": "user", "content": "stream the benchmark text"}},
	})
	t0 := time.Now()
	resp, err := http.Post(url+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return run, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return run, fmt.Errorf("scripted model answered %s", resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	type sseChunk struct {
		Choices []struct {
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
	}
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(data) == "[DONE]" {
			continue
		}
		// A fresh value per chunk: decoding into reused slice elements
		// would keep the previous content under an empty delta.
		var chunk sseChunk
		if err := json.Unmarshal(data, &chunk); err != nil {
			return run, fmt.Errorf("SSE chunk: %w", err)
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != "" {
				run.events++
				run.chars += utf8.RuneCountInString(c.Delta.Content)
			}
		}
	}
	run.elapsed = time.Since(t0)
	if err := sc.Err(); err != nil {
		return run, err
	}
	if run.chars != utf8.RuneCountInString(text) {
		return run, fmt.Errorf("model stream carried %d chars, want %d", run.chars, utf8.RuneCountInString(text))
	}
	return run, nil
}

func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// medianRun is the run with the median elapsed time.
func medianRun(runs []streamRun) streamRun {
	if len(runs) == 0 {
		return streamRun{}
	}
	s := make(sample, len(runs))
	for i, r := range runs {
		s[i] = r.elapsed
	}
	best := runs[0]
	med := s.median()
	for _, r := range runs {
		if absDur(r.elapsed-med) < absDur(best.elapsed-med) {
			best = r
		}
	}
	return best
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
