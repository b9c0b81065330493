package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// terminalAsker answers ask_human in `govibe exec` from a person at the
// terminal: the question goes to out (stderr, so stdout stays the run's
// output), the answer is one line from in. A number picks a choice, "/done
// TEXT" replies and ends the topic, an empty line or EOF cancels.
type terminalAsker struct {
	mu  sync.Mutex // one question at a time
	in  *bufio.Reader
	out io.Writer
	tr  func(string, ...any) string
	// lines is fed by one reader goroutine, started on the first question:
	// a question that timed out leaves its read pending, and a second
	// reader on the same bufio.Reader would race with it.
	once  sync.Once
	lines chan termLine
}

type termLine struct {
	s   string
	err error
	at  time.Time // when it was read: a line typed before a question was shown does not answer it
}

// stdinAsker returns the asker for this process, or nil when stdin is not
// a terminal (piped prompt, CI): then nobody can answer.
func stdinAsker(tr func(string, ...any) string) func(context.Context, tools.HumanQuestion) (tools.HumanReply, error) {
	if !isatty.IsTerminal(os.Stdin.Fd()) {
		return nil
	}
	return newTerminalAsker(os.Stdin, os.Stderr, tr).ask
}

func newTerminalAsker(in io.Reader, out io.Writer, tr func(string, ...any) string) *terminalAsker {
	return &terminalAsker{in: bufio.NewReader(in), out: out, tr: tr}
}

func (t *terminalAsker) ask(ctx context.Context, q tools.HumanQuestion) (tools.HumanReply, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Lines read from here on answer this question (the first question
	// starts the reader, so input typed ahead of it still counts).
	shown := time.Now()
	t.once.Do(func() {
		t.lines = make(chan termLine)
		go func() {
			for {
				s, err := t.in.ReadString('\n')
				t.lines <- termLine{s, err, time.Now()}
				if err != nil {
					close(t.lines)
					return
				}
			}
		}()
	})
	header := q.Header
	if header == "" {
		header = t.tr("The agent asks:")
	}
	fmt.Fprintf(t.out, "\n%s\n%s\n", header, q.Question)
	for i, o := range q.Options {
		fmt.Fprintf(t.out, "  %d) %s\n", i+1, o)
	}
	fmt.Fprintf(t.out, "%s\n> ", t.tr("Type a reply (or a choice's number), \"/done REPLY\" to end the topic, an empty line to cancel."))
	var l termLine
	for l.at.IsZero() {
		select {
		case got, ok := <-t.lines:
			if !ok {
				l.at = shown // EOF earlier: cancelled
			} else if !got.at.Before(shown) || got.err != nil {
				l = got
			}
		case <-ctx.Done():
			fmt.Fprintf(t.out, "\n%s\n", t.tr("No answer in time; the agent goes on without one."))
			return tools.HumanReply{}, ctx.Err()
		}
	}
	s := strings.TrimSpace(l.s)
	if s == "" {
		return tools.HumanReply{Cancelled: true}, nil
	}
	done := false
	if rest, ok := strings.CutPrefix(s, "/done"); ok {
		done, s = true, strings.TrimSpace(rest)
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(q.Options) {
		s = q.Options[n-1]
	}
	return tools.HumanReply{Reply: s, Done: done}, nil
}
