package engine

import (
	"context"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
)

// titleMax is how many characters of the first message name a session.
const titleMax = 60

var (
	titleBlocks  = regexp.MustCompile("(?s)<context>.*?</context>|```.*?(```|$)")
	titleMarkup  = regexp.MustCompile("[`*_~]+|^\\s*(#{1,6}|>|[-+*]|\\d+[.)])\\s+")
	titleSpaces  = regexp.MustCompile(`\s+`)
	titleLinkRef = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// sessionTitle names a session after its first message: code blocks,
// injected context and Markdown markup dropped, whitespace collapsed, cut
// at a word boundary near titleMax characters.
func sessionTitle(text string) string {
	s := titleBlocks.ReplaceAllString(text, " ")
	s = titleLinkRef.ReplaceAllString(s, "$1")
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(titleMarkup.ReplaceAllString(l, "")); l != "" {
			lines = append(lines, l)
		}
	}
	s = strings.TrimSpace(titleSpaces.ReplaceAllString(strings.Join(lines, " "), " "))
	if utf8.RuneCountInString(s) <= titleMax {
		return s
	}
	r := []rune(s)[:titleMax]
	cut := string(r)
	// Prefer ending on a whole word when one ends in the last third.
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:-") + "…"
}

// titleTimeout bounds the title request: a title that comes late is still
// better than none, but the first-message title already stands in.
const titleTimeout = 60 * time.Second

// titlePrompt asks for a title only; model-facing, so English.
const titlePrompt = "You name coding-assistant sessions. Reply with a title of at most eight words for the session that starts with the user's message: no quotes, no trailing punctuation, in the language of the message. Reply with the title only."

// modelTitles says whether sessions are named by a model: titles.model,
// or a title role of its own (configuring one is asking for it).
func (e *Engine) modelTitles() bool {
	v := e.Settings()
	return config.Typed(v).Titles.Model || roleModel(v, RoleTitle) != ""
}

// modelTitle asks the title role's model (main when it has no profile) to
// name the session, in the background: the turn does not wait, and the
// first-message title stays when the request fails or says nothing
// usable. A user's rename always wins (the store ignores auto titles
// then).
func (e *Engine) modelTitle(sid, text string) {
	if e.meter.Root(sid) != sid {
		return // hidden child sessions (sub-agents, reviewers) are never listed
	}
	profile := e.roleProfileFor(context.Background(), sid, RoleTitle)
	client, err := e.client(profile)
	if err != nil {
		e.log.Debug("title model", zap.Error(err))
		return
	}
	if r := []rune(text); len(r) > 2000 {
		text = string(r[:2000])
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		ctx, cancel := context.WithTimeout(e.baseCtx, titleTimeout)
		defer cancel()
		resp, err := client.Stream(ctx, llm.Request{
			Messages:  []llm.Message{{Role: llm.RoleSystem, Content: titlePrompt}, {Role: llm.RoleUser, Content: text}},
			MaxTokens: 40, SessionID: sid,
		}, nil)
		if err != nil {
			e.log.Info("session title from the model failed; the first message names it", zap.String("session", sid), zap.Error(err))
			return
		}
		title := cleanModelTitle(resp.Content)
		if title == "" {
			return
		}
		if ok, err := e.Store.SetAutoTitle(ctx, sid, title); err == nil && ok {
			e.opts.OnSession(e.summary(ctx, sid))
		}
	}()
}

// cleanModelTitle keeps the first non-empty line of a model's answer,
// without quotes, Markdown or a "Title:" label, cut like a message title.
func cleanModelTitle(s string) string {
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if i := strings.Index(line, ":"); i > 0 && i < 8 && strings.EqualFold(strings.TrimSpace(line[:i]), "title") {
			line = line[i+1:]
		}
		line = strings.Trim(strings.TrimSpace(line), "\"'“”‘’「」`*#")
		return strings.TrimRight(sessionTitle(line), ".。")
	}
	return ""
}
