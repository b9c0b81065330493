package slashcmd

import (
	"context"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/agent/slashcmd/customcmd"
	"github.com/govibe/govibe/server/internal/util/lazyload"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// Custom commands from the command folders (project ones only in a
// trusted workspace). They live in their own registry, loaded on first use
// and again when trust changes (Reset) or a command file is added, edited
// or removed (the folders' customcmd.Stamp differs), and are matched
// before the built-ins: a project or user file may replace a built-in,
// which is reported.

// customLoad is one load of the folders and what it found wrong.
type customLoad struct {
	reg                 *Registry
	problems, conflicts []customcmd.Problem
}

// newCustom returns the loader of the custom commands. It keeps one load
// per stamp, so problems are reported once (Kept), and never keeps a load
// that a Reset (trust changed) overtook.
func (c *Commands) newCustom() *lazyload.Loader[customLoad] {
	return lazyload.New(lazyload.Options[customLoad]{
		Stamp: func() string { return customcmd.Stamp(c.customDirs()) },
		Load:  func() customLoad { return c.loadCustom(c.customDirs()) },
		Kept:  c.reportCustom,
	})
}

// customRegistry is the current registry, loaded again if the folders
// changed.
func (c *Commands) customRegistry() *Registry { return c.custom.Get().reg }

func (c *Commands) customDirs() []customcmd.Dir {
	return customcmd.Dirs(c.o.Home, c.o.Roots, c.o.Trusted())
}

func (c *Commands) loadCustom(dirs []customcmd.Dir) customLoad {
	cmds, problems, conflicts := customcmd.Load(dirs, func(n string) bool {
		_, ok := c.builtin.Lookup(n)
		return ok
	})
	r := newRegistry[Handler]()
	for _, cc := range cmds {
		cc := cc
		hint := cc.ArgumentHint
		if hint == "" {
			hint = "[arguments]" // every custom command may take arguments
		}
		if err := r.Register(Command{Name: cc.Name, Description: cc.Description, ArgumentHint: hint,
			Handler: func(_ context.Context, p Params, args string) (Outcome, error) {
				ed := customcmd.Editor{File: p.ActiveFile, Selection: p.Selection, Workspace: c.o.Roots[0]}
				text, shell, err := cc.ExpandShell(args, ed, nonce())
				if err != nil {
					return Outcome{}, err
				}
				if err := c.mayRunShell(cc, shell); err != nil {
					return Outcome{}, err
				}
				return Outcome{Text: text, Model: cc.Model, Allowed: cc.AllowedTools, Shell: shell}, nil
			}}); err != nil {
			problems = append(problems, customcmd.Problem{Path: cc.Path, Message: err.Error()})
		}
	}
	return customLoad{reg: r, problems: problems, conflicts: conflicts}
}

func (c *Commands) reportCustom(l customLoad) {
	for _, p := range l.problems {
		c.o.Log.Warn("custom command problem", zap.String("path", p.Path), zap.Int("line", p.Line), zap.String("problem", p.Message))
		c.o.Notice("warning", c.h.Tr("Command not loaded: %s", p.Error()))
	}
	for _, p := range l.conflicts {
		c.o.Notice("info", c.h.Tr("Command conflict: %s", p.Error()))
	}
}

// prompts are the connected servers' prompts as slash commands.
func (c *Commands) prompts(m Prompts) *Registry {
	r := newRegistry[Handler]()
	for _, p := range m.Prompts() {
		p := p
		hint := ""
		if len(p.Arguments) > 0 {
			hint = strings.Join(p.Arguments, " ")
		} else {
			hint = "[arguments]"
		}
		_ = r.Register(Command{Name: p.Command, Description: p.Description, ArgumentHint: hint,
			Handler: func(ctx context.Context, _ Params, args string) (Outcome, error) {
				named, err := mcpclient.PromptArgs(p.Arguments, args)
				if err != nil {
					return Outcome{}, err
				}
				text, err := m.GetPrompt(ctx, p.Server, p.Name, named)
				if err != nil {
					return Outcome{}, err
				}
				return Outcome{Text: text}, nil
			}})
	}
	return r
}
