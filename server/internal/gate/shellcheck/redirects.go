package shellcheck

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

type classWhy struct {
	class Class
	why   string
}

// rdrInfo is what a statement's redirections do.
type rdrInfo struct {
	reasons []classWhy
	targets []rdrTarget
}

type rdrTarget struct {
	pi     pathInfo
	name   string
	append bool
}

// redirects analyses a statement's redirections: files written, input
// read, and here-documents. It returns the standard input they set up.
func (a *analyzer) redirects(s *syntax.Stmt, in *feed) (*feed, []string, rdrInfo) {
	var writes []string
	var info rdrInfo
	for _, r := range s.Redirs {
		if r.Word != nil {
			a.subs(r.Word)
		}
		if r.Hdoc != nil {
			a.subs(r.Hdoc)
		}
		stdin := r.N == nil || r.N.Value == "0"
		if r.Word != nil {
			// /dev/tcp/$HOST/$PORT: a connection even when the address is
			// computed.
			if p := a.wordPattern(r.Word); strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/") {
				info.reasons = append(info.reasons, classWhy{Dangerous, "connects to the network through " + strings.ReplaceAll(p, computedMark, "$…") + ": it can send local data or connect a shell to a socket"})
			}
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
			syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut, syntax.DplOut:
			if r.Word == nil {
				continue
			}
			if r.Op == syntax.DplOut {
				if v := r.Word.Lit(); v == "-" || isDigits(v) {
					continue
				}
			}
			for _, t := range a.word(r.Word) {
				pi := a.resolve(t)
				if pi.kind == pkNull {
					continue
				}
				writes = append(writes, t.val)
				c, why := writeSeverity(pi)
				info.reasons = append(info.reasons, classWhy{c, why})
				app := r.Op == syntax.AppOut || r.Op == syntax.AppAll || r.Op == syntax.AppClob || r.Op == syntax.AppAllClob
				info.targets = append(info.targets, rdrTarget{pi: pi, name: t.val, append: app})
			}
		case syntax.RdrIn:
			if r.Word == nil {
				continue
			}
			for _, t := range a.word(r.Word) {
				if t.lit {
					pi := a.resolve(t)
					switch {
					case pi.kind == pkNet:
						info.reasons = append(info.reasons, classWhy{Dangerous, "reads from a network connection (" + pi.abs + "): it can feed a shell remote commands"})
					case a.isCredential(pi) || a.secretWhy(pi.abs) != "":
						info.reasons = append(info.reasons, classWhy{Dangerous, "reads a secret: " + pi.abs})
					case pi.kind == pkOutside || pi.kind == pkSensitive || pi.kind == pkUnknown || (pi.kind == pkDevice && !harmlessDevices[pi.abs]):
						info.reasons = append(info.reasons, classWhy{ReadsOutside, "reads " + pi.abs + ", outside the workspace"})
					}
				}
				if stdin {
					t := t
					in = &feed{file: &t}
				}
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if stdin {
				in = &feed{hdoc: r.Hdoc}
			}
		case syntax.WordHdoc:
			if stdin {
				in = &feed{hstring: r.Word}
			}
		}
	}
	return in, writes, info
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// authoringCmds print text given in the command itself; sending their output
// to a workspace file is writing that file by hand.
var authoringCmds = set("echo", "printf", "cat")

// authoredFeed reports whether standard input carries text written in the
// command line itself (a here-document, a here-string, echo or printf).
func authoredFeed(in *feed) bool {
	if in == nil {
		return false
	}
	if in.hdoc != nil || in.hstring != nil {
		return true
	}
	if len(in.upstream) > 0 {
		last := in.upstream[len(in.upstream)-1]
		if c, ok := last.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			switch c.Args[0].Lit() {
			case "echo", "printf":
				return true
			case "cat":
				return len(c.Args) == 1 && hasHdoc(last)
			}
		}
	}
	return false
}

func hasHdoc(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
			return true
		}
	}
	return false
}

// writeHint decides whether a statement's output redirections write a
// workspace file the edit tools should write instead.
func (a *analyzer) writeHint(sub *SubCommand, info rdrInfo, in *feed) {
	authored := false
	if authoringCmds[sub.Name] {
		authored = sub.Name != "cat" || len(sub.Args) == 0 || (in != nil && (in.hdoc != nil || in.hstring != nil))
	}
	for _, t := range info.targets {
		a.writeTargetHint(t.pi, t.name, authored, t.append, "redirection")
	}
}

// writeTargetHint is the write rule: writing a workspace file outside build
// output directories is a job for the edit tools when the content is written
// in the command itself (echo, printf, here-documents) or the file is source
// or project configuration. Logs and other outputs of real commands
// (go test > test.log) are not.
func (a *analyzer) writeTargetHint(pi pathInfo, name string, authored, appendMode bool, how string) {
	if pi.kind != pkInside {
		return
	}
	if !authored && !isSourceFile(name) && !isProjectTextFile(name) {
		return
	}
	tool := ToolWriteFile
	verb := "write"
	if appendMode {
		tool, verb = ToolEditFile, "change"
	}
	via := "a shell " + how
	if how == "tee" {
		via = "tee"
	}
	a.hint(tool, "Use the "+tool+" tool to "+verb+" "+name+" instead of "+via+".")
}

var projectTextExts = set(".json", ".jsonc", ".yaml", ".yml", ".toml", ".md", ".mdx", ".rst", ".xml",
	".ini", ".cfg", ".conf", ".properties", ".gradle", ".mod", ".env", ".gitignore", ".dockerignore", ".editorconfig")

var projectTextNames = set("Makefile", "makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Jenkinsfile",
	"Procfile", "Gemfile", "Rakefile", "Vagrantfile", ".gitignore", ".dockerignore", ".editorconfig",
	".env", ".npmignore", ".prettierrc", ".eslintrc", "go.mod", "go.work", "CODEOWNERS")

func isProjectTextFile(p string) bool {
	base := path.Base(p)
	if projectTextNames[base] || strings.HasPrefix(base, "README") || strings.HasPrefix(base, "LICENSE") || strings.HasPrefix(base, "CHANGELOG") {
		return true
	}
	return projectTextExts[strings.ToLower(path.Ext(base))]
}
