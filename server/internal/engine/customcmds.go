package engine

import (
	"context"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/commands"
	"github.com/govibe/govibe/server/internal/customcmd"
)

// Custom commands from the command folders (project ones only in a trusted
// workspace). They live in their own registry, loaded on first use and
// rebuilt when trust changes or a command file is added, edited or
// removed, and are matched before the built-ins: a project or user file
// may replace a built-in, which is reported.

// customCommands returns the loaded registry, loading it on first use and
// again whenever the command folders' stamp changed.
func (e *Engine) customCommands() *commands.Registry[slashHandler] {
	e.mu.Lock()
	r, was := e.custom, e.customStamp
	e.mu.Unlock()
	dirs := customcmd.Dirs(e.home(), e.opts.Roots, e.trust.Trusted())
	stamp := customcmd.Stamp(dirs)
	if r != nil && stamp == was {
		return r
	}
	cmds, problems, conflicts := customcmd.Load(dirs, func(n string) bool {
		_, ok := e.commands.Lookup(n)
		return ok
	})
	r = commands.New[slashHandler]()
	for _, c := range cmds {
		c := c
		hint := c.ArgumentHint
		if hint == "" {
			hint = "[arguments]" // every custom command may take arguments
		}
		if err := r.Register(commands.Command[slashHandler]{Name: c.Name, Description: c.Description, ArgumentHint: hint,
			Handler: func(ctx context.Context, p SendParams, args string) (commandOutcome, error) {
				ed := customcmd.Editor{File: p.ActiveFile, Selection: p.Selection, Workspace: e.opts.Roots[0]}
				text, err := c.Expand(args, ed)
				if err != nil {
					return commandOutcome{}, err
				}
				return commandOutcome{text: text, model: c.Model, allowed: c.AllowedTools}, nil
			}}); err != nil {
			problems = append(problems, customcmd.Problem{Path: c.Path, Message: err.Error()})
		}
	}
	e.mu.Lock()
	// Another caller may have loaded the same folders meanwhile: keep one
	// registry per stamp, so problems are reported once. A reset (trust
	// changed) clears custom, so a registry loaded under the old trust
	// is never kept.
	if e.custom == nil || e.customStamp != stamp {
		e.custom, e.customStamp = r, stamp
		e.mu.Unlock()
		e.reportCustomCommands(problems, conflicts)
	} else {
		r = e.custom
		e.mu.Unlock()
	}
	return r
}

func (e *Engine) reportCustomCommands(problems, conflicts []customcmd.Problem) {
	for _, p := range problems {
		e.log.Warn("custom command problem", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
		e.notice("warning", e.tr("Command not loaded: %s", p.Error()))
	}
	for _, p := range conflicts {
		e.notice("info", e.tr("Command conflict: %s", p.Error()))
	}
}

// resetCustomCommands drops the registry; the next use loads it again.
func (e *Engine) resetCustomCommands() {
	e.mu.Lock()
	e.custom = nil
	e.mu.Unlock()
}

// matchCommand finds the command a message invokes: custom first, then
// the built-ins.
func (e *Engine) matchCommand(text string) (commands.Command[slashHandler], string, bool) {
	if c, args, ok := e.customCommands().Match(text); ok {
		return c, args, true
	}
	if strings.HasPrefix(strings.ToLower(text), "/mcp:") {
		// Prompts are known once their server is connected.
		ctx, cancel := context.WithTimeout(e.baseCtx, 30*time.Second)
		e.mcp.Manager().Start(ctx)
		cancel()
		if c, args, ok := e.mcpPromptCommands().Match(text); ok {
			return c, args, true
		}
	}
	return e.commands.Match(text)
}

// Commands lists every slash command (custom ones replacing built-ins of
// the same name), sorted, for autocomplete and /help.
func (e *Engine) Commands() []commands.Info {
	custom := e.customCommands().List()
	seen := map[string]bool{}
	for _, c := range custom {
		seen[c.Name] = true
	}
	out := custom
	for _, c := range e.commands.List() {
		if !seen[c.Name] {
			out = append(out, c)
		}
	}
	out = append(out, e.mcpPromptCommands().List()...)
	sortInfos(out)
	return out
}

func sortInfos(xs []commands.Info) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && strings.Compare(xs[j-1].Name, xs[j].Name) > 0; j-- {
			xs[j-1], xs[j] = xs[j], xs[j-1]
		}
	}
}
