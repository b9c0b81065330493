package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/shell"
)

// ripgrepArgs builds the rg command line. The flags pin rg to the rules
// the Go engine implements: .gitignore files only (also outside git
// repositories), no global/exclude/.ignore files, hidden files skipped.
func ripgrepArgs(q grepQuery) []string {
	args := []string{
		"--no-config", "--no-heading", "--with-filename", "--line-number", "--color=never",
		"--null", "--no-messages", "--no-require-git", "--no-ignore-global",
		"--no-ignore-exclude", "--no-ignore-dot",
	}
	if !q.regex {
		args = append(args, "--fixed-strings")
	}
	if !q.caseSensitive {
		args = append(args, "--ignore-case")
	}
	for _, g := range q.includes {
		args = append(args, "--glob", g)
	}
	for _, g := range q.excludes {
		args = append(args, "--glob", "!"+g)
	}
	return append(args, "--regexp", q.pattern)
}

// rgTimeout bounds one ripgrep run. A search that is slow on a large tree
// ends long before it; what does not is ripgrep blocked opening a FIFO
// named like an ignore file (.gitignore, .ignore), which it reads as it
// walks and which never ends (issue 31).
var rgTimeout = 2 * time.Minute

var errRgTimeout = fmt.Errorf("ripgrep did not finish within %s and was stopped (a named pipe in the tree named .gitignore or .ignore can stall it); search a narrower path", rgTimeout)

// grepRipgrep runs rg in start (or start's folder, for a file) and parses
// "path\0line:text" records until limit hits.
func grepRipgrep(ctx context.Context, rg, start string, q grepQuery, limit int) ([]grepHit, error) {
	ctx, stop := context.WithTimeoutCause(ctx, rgTimeout, errRgTimeout)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := ripgrepArgs(q)
	dir := start
	if fi, err := os.Stat(start); err == nil && !fi.IsDir() {
		dir = filepath.Dir(start)
		args = append(args, "--", filepath.Base(start))
	}
	cmd := exec.CommandContext(ctx, rg, args...)
	cmd.Dir = dir
	// The sidecar holds credentials in its own environment; rg needs none.
	cmd.Env = shell.ScrubEnv(os.Environ())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting ripgrep: %w", err)
	}
	var hits []grepHit
	r := bufio.NewReaderSize(out, 256<<10)
	for len(hits) < limit {
		rec, rerr := r.ReadSlice('\n')
		if rerr == bufio.ErrBufferFull {
			// A giant line: keep the head, skip the rest of it.
			head := append([]byte(nil), rec...)
			for rerr == bufio.ErrBufferFull {
				_, rerr = r.ReadSlice('\n')
			}
			rec = head
		}
		if len(rec) > 0 {
			if h, ok := parseRipgrepLine(rec); ok {
				hits = append(hits, h)
			}
		}
		if rerr != nil {
			if rerr != io.EOF {
				return nil, rerr
			}
			break
		}
	}
	if len(hits) >= limit {
		cancel()
	}
	werr := cmd.Wait()
	if errors.Is(context.Cause(ctx), errRgTimeout) {
		return nil, errRgTimeout
	}
	var ee *exec.ExitError
	if werr != nil && len(hits) < limit && errors.As(werr, &ee) && ee.ExitCode() >= 2 && len(hits) == 0 {
		return nil, fmt.Errorf("ripgrep: %s", strings.TrimSpace(stderr.String()))
	}
	return hits, nil
}

func parseRipgrepLine(rec []byte) (grepHit, bool) {
	rec = bytes.TrimSuffix(rec, []byte{'\n'})
	nul := bytes.IndexByte(rec, 0)
	if nul < 0 {
		return grepHit{}, false
	}
	rest := rec[nul+1:]
	colon := bytes.IndexByte(rest, ':')
	if colon < 0 {
		return grepHit{}, false
	}
	n, err := strconv.Atoi(string(rest[:colon]))
	if err != nil {
		return grepHit{}, false
	}
	rel := filepath.ToSlash(string(rec[:nul]))
	rel = strings.TrimPrefix(rel, "./")
	text := bytes.TrimSuffix(rest[colon+1:], []byte{'\r'})
	if len(text) > 4*grepMaxLineLen {
		text = text[:4*grepMaxLineLen]
	}
	return grepHit{rel: rel, line: n, text: string(text)}, true
}
