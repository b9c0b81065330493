package shellcheck

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxDepth bounds nested re-parsing (eval, bash -c, here-documents) so that
// a deliberately deep command cannot exhaust the stack; deeper nesting is
// dangerous by itself.
const maxDepth = 12

// maxInput bounds the command size the analysis accepts.
const maxInput = 1 << 20

// analyzer walks one command line. It is used by one goroutine only and
// discarded after Analyze returns.
type analyzer struct {
	ws       Workspace
	roots    []string
	cwd      string
	cwdKnown bool
	src      string
	depth    int
	funcs    map[string]bool
	out      *Analysis
	reasons  []classWhy
	examples []string // secretExamples, built on first use
}

// Analyze classifies a command line the way bash would parse it. It never
// panics: a command it cannot parse is Dangerous with the parse error.
// Analyze is safe for concurrent use; it keeps no state between calls.
func Analyze(command string, ws Workspace) (res Analysis) {
	a := newAnalyzer(ws)
	defer func() {
		if r := recover(); r != nil {
			// A parser or analysis bug must never let a command through.
			res = Analysis{Class: Dangerous, Reasons: []string{fmt.Sprintf("internal analysis error: %v", r)}}
		}
	}()
	if len(command) > maxInput {
		a.out.Class = Dangerous
		a.out.Reasons = []string{fmt.Sprintf("command is %d bytes, longer than the %d bytes analysed", len(command), maxInput)}
		return *a.out
	}
	if err := a.script(command, ""); err != nil {
		a.out.ParseError = err.Error()
		a.reason(Dangerous, "the command cannot be parsed as bash: "+err.Error())
	}
	a.finish()
	if a.out.Class == Dangerous {
		// The refusal must name the danger, not suggest a tool.
		a.out.UseTool = nil
	}
	return *a.out
}

func newAnalyzer(ws Workspace) *analyzer {
	a := &analyzer{ws: ws, out: &Analysis{}, funcs: map[string]bool{}, cwdKnown: true}
	for _, r := range ws.Roots {
		if r != "" {
			a.roots = append(a.roots, filepath.Clean(r))
		}
	}
	if ws.Home != "" {
		a.ws.Home = filepath.Clean(ws.Home)
	}
	switch {
	case ws.Cwd != "" && filepath.IsAbs(ws.Cwd):
		a.cwd = filepath.Clean(ws.Cwd)
	case ws.Cwd != "" && len(a.roots) > 0:
		a.cwd = filepath.Join(a.roots[0], ws.Cwd)
	case len(a.roots) > 0:
		a.cwd = a.roots[0]
	}
	return a
}

// script parses src and walks it; via names the construct that runs it.
func (a *analyzer) script(src string, via string) error {
	if a.depth >= maxDepth {
		a.reason(Dangerous, "commands nested more than 12 levels deep (eval, bash -c)")
		return nil
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return err
	}
	saved := a.src
	a.src = src
	a.scanSecrets(f)
	a.depth++
	a.stmts(f.Stmts)
	a.depth--
	a.src = saved
	return nil
}

// nested analyses a script run by a command (eval, bash -c, a here-document
// fed to a shell); a parse error there makes the whole command dangerous.
func (a *analyzer) nested(src, via string, sub *SubCommand) {
	start := len(a.out.Commands)
	if err := a.script(src, via); err != nil {
		sub.raise(Dangerous, fmt.Sprintf("the script run by %s cannot be parsed: %v", via, err))
		return
	}
	for i := start; i < len(a.out.Commands); i++ {
		c := &a.out.Commands[i]
		c.Via = append([]string{via}, c.Via...)
	}
}

func (a *analyzer) reason(c Class, why string) {
	if c > a.out.Class {
		a.out.Class = c
	}
	a.reasons = append(a.reasons, classWhy{c, why})
}

func (a *analyzer) finish() {
	seen := map[string]bool{}
	add := func(r string) {
		if r != "" && !seen[r] {
			seen[r] = true
			a.out.Reasons = append(a.out.Reasons, r)
		}
	}
	for _, r := range a.reasons {
		add(r.why)
	}
	for _, c := range a.out.Commands {
		if c.Class > a.out.Class {
			a.out.Class = c.Class
		}
		for _, r := range c.Reasons {
			add(subName(c) + ": " + r)
		}
	}
	a.out.Reason = a.classReason()
}

func subName(c SubCommand) string {
	if c.Name == "" {
		return "redirection"
	}
	return c.Name
}

// classReason is the one-line why of the command's class: the class in
// words and the first reason given at that class.
func (a *analyzer) classReason() string {
	d := a.out.Class.Describe()
	for _, r := range a.reasons {
		if r.class == a.out.Class && r.why != "" {
			return d + ": " + r.why
		}
	}
	for _, c := range a.out.Commands {
		if c.Class == a.out.Class && c.top != "" {
			return d + ": " + subName(c) + ": " + c.top
		}
	}
	return d
}

func (s *SubCommand) raise(c Class, why string) {
	if c == Mutating {
		s.mutates = true
	}
	if c > s.Class {
		s.Class = c
		s.top = why
	} else if c == s.Class && s.top == "" {
		s.top = why
	}
	if why == "" {
		return
	}
	for _, r := range s.Reasons {
		if r == why {
			return
		}
	}
	s.Reasons = append(s.Reasons, why)
}

// checkCmd marks sub-command i as a test runner, linter or type checker.
func (a *analyzer) checkCmd(i int) int {
	a.out.Commands[i].check = true
	return i
}

func (a *analyzer) hint(tool, msg string) {
	if a.out.UseTool == nil {
		a.out.UseTool = &ToolHint{Tool: tool, Message: msg}
	}
}

// stmts walks a sequential list; cwd changes carry from one to the next.
func (a *analyzer) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		cwd, known := a.cwd, a.cwdKnown
		a.stmt(s, nil)
		// A list that changed directory and can stop half-way (&&, ||)
		// leaves the next statement in one directory or the other.
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) && (a.cwd != cwd || a.cwdKnown != known) {
			a.cwdKnown = false
		}
	}
}

// isolated walks statements that run in a subshell: a cd there does not
// change the directory of what follows.
func (a *analyzer) isolated(list []*syntax.Stmt) {
	cwd, known := a.cwd, a.cwdKnown
	a.stmts(list)
	a.cwd, a.cwdKnown = cwd, known
}

// branch walks statements that may or may not run; afterwards the working
// directory is known only if it is the same either way.
func (a *analyzer) branch(list []*syntax.Stmt) {
	cwd, known := a.cwd, a.cwdKnown
	a.stmts(list)
	if a.cwd != cwd || a.cwdKnown != known {
		a.cwdKnown = false
	}
}

// feed is what a command reads on standard input.
type feed struct {
	upstream []*syntax.Stmt // previous pipeline stages
	hdoc     *syntax.Word   // here-document body
	hstring  *syntax.Word   // here-string word
	file     *arg           // < file
}

func (a *analyzer) stmt(s *syntax.Stmt, in *feed) {
	in, writes, rdr := a.redirects(s, in)
	primary := -1
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		primary = a.callExpr(c, in)
	case *syntax.BinaryCmd:
		a.binary(c)
	case *syntax.Subshell:
		a.isolated(c.Stmts)
	case *syntax.Block:
		a.stmts(c.Stmts)
	case *syntax.IfClause:
		a.ifClause(c)
	case *syntax.WhileClause:
		a.branch(c.Cond)
		a.branch(c.Do)
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			for _, w := range l.Items {
				a.subs(w)
			}
		case *syntax.CStyleLoop:
			a.subs(l)
		}
		a.branch(c.Do)
	case *syntax.CaseClause:
		a.subs(c.Word)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				a.subs(p)
			}
			a.branch(item.Stmts)
		}
	case *syntax.FuncDecl:
		a.funcDecl(c)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		a.subs(c)
	case *syntax.DeclClause:
		a.declClause(c)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, in)
		}
	case *syntax.CoprocClause:
		if c.Name != nil {
			a.subs(c.Name)
		}
		if c.Stmt != nil {
			a.isolatedStmt(c.Stmt)
		}
	default:
		a.subs(c)
		a.reason(Dangerous, fmt.Sprintf("unsupported shell construct %T", c))
	}
	if len(rdr.reasons) == 0 && len(writes) == 0 {
		return
	}
	// Redirections belong to the first command the statement runs; a
	// compound command's redirections get a sub-command of their own.
	var sub *SubCommand
	if primary >= 0 {
		sub = &a.out.Commands[primary]
	} else {
		a.out.Commands = append(a.out.Commands, SubCommand{Literal: true})
		sub = &a.out.Commands[len(a.out.Commands)-1]
		if s.Cmd == nil {
			sub.Name = ""
		} else {
			sub.Name = "{...}"
		}
	}
	sub.Writes = append(sub.Writes, writes...)
	for _, r := range rdr.reasons {
		sub.raise(r.class, r.why)
	}
	if sub.Class < Mutating && len(writes) > 0 {
		sub.raise(Mutating, "")
	}
	a.writeHint(sub, rdr, in)
}

func (a *analyzer) isolatedStmt(s *syntax.Stmt) {
	cwd, known := a.cwd, a.cwdKnown
	a.stmt(s, nil)
	a.cwd, a.cwdKnown = cwd, known
}

func (a *analyzer) ifClause(c *syntax.IfClause) {
	for ; c != nil; c = c.Else {
		a.branch(c.Cond)
		a.branch(c.Then)
	}
}

func (a *analyzer) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.Pipe, syntax.PipeAll:
		stages := flattenPipe(c)
		for i, st := range stages {
			var in *feed
			if i > 0 {
				in = &feed{upstream: stages[:i]}
			}
			cwd, known := a.cwd, a.cwdKnown
			a.stmt(st, in)
			a.cwd, a.cwdKnown = cwd, known
		}
	case syntax.AndStmt:
		// Within an && chain each part runs only after the previous ones
		// succeeded, so a cd carries over exactly; a statement after the
		// whole chain may run after only part of it (see stmt).
		a.stmt(c.X, nil)
		a.stmt(c.Y, nil)
	default: // ||
		cwd, known := a.cwd, a.cwdKnown
		a.stmt(c.X, nil)
		// The right side runs when the left failed, possibly before a cd in
		// it took effect.
		if a.cwd != cwd || a.cwdKnown != known {
			a.cwdKnown = false
		}
		a.branch([]*syntax.Stmt{c.Y})
	}
}

func flattenPipe(c *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	var walk func(s *syntax.Stmt)
	walk = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Negated && !s.Background {
			walk(b.X)
			walk(b.Y)
			return
		}
		out = append(out, s)
	}
	walk(c.X)
	walk(c.Y)
	return out
}

// subs analyses the command and process substitutions inside a node: they
// run before (or alongside) the command that contains them.
func (a *analyzer) subs(n syntax.Node) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			a.isolated(n.Stmts)
			return false
		case *syntax.ProcSubst:
			a.isolated(n.Stmts)
			return false
		}
		return true
	})
}

func (a *analyzer) funcDecl(c *syntax.FuncDecl) {
	names := []string{}
	if c.Name != nil {
		names = append(names, c.Name.Value)
	}
	for _, n := range c.Names {
		names = append(names, n.Value)
	}
	for _, n := range names {
		a.funcs[n] = true
		if forkBomb(n, c.Body) {
			a.out.Commands = append(a.out.Commands, SubCommand{Name: n, Literal: true, Class: Dangerous,
				Reasons: []string{"fork bomb: function " + n + " runs copies of itself in a pipeline or in the background"}})
		}
	}
	if c.Body != nil {
		a.isolatedStmt(c.Body)
	}
}

// forkBomb reports whether a function body calls the function itself in a
// pipeline or in the background, multiplying processes without bound.
func forkBomb(name string, body *syntax.Stmt) bool {
	if body == nil {
		return false
	}
	calls := func(s *syntax.Stmt) bool {
		found := false
		syntax.Walk(s, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
				found = true
			}
			return !found
		})
		return found
	}
	bomb := false
	syntax.Walk(body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && calls(n) {
				bomb = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (calls(n.X) || calls(n.Y)) {
				bomb = true
			}
		}
		return !bomb
	})
	return bomb
}
