package sessions

import (
	"bufio"
	"context"
	"os/exec"
	"time"

	"github.com/go-git/go-git/v5"
)

// A session's system prompt carries the date and, per root, whether it is
// a git repository, its branch and whether its tree is dirty. They are
// read once, when the session's first prompt is built, and kept for the
// process's life: the prompt stays byte-identical (the provider's cache
// keeps hitting) across midnight and while the agent changes files. A
// restart reads them again.

// maxGitRoots bounds the roots whose git state is read.
const maxGitRoots = 4

// Facts are what a session's system prompt says of its environment.
type Facts struct {
	// Date is the day the session's first prompt was built (2006-01-02).
	Date string
	// Git describes each root's repository, at most maxGitRoots of them.
	Git []string
}

// Facts is session sid's facts, read on first use.
func (c *Catalog) Facts(sid string) Facts {
	if v, ok := c.facts.Load(sid); ok {
		return v.(Facts)
	}
	f := Facts{Date: time.Now().Format("2006-01-02")}
	for i, root := range c.o.Roots {
		if i == maxGitRoots {
			break
		}
		f.Git = append(f.Git, gitFact(root, len(c.o.Roots) > 1))
	}
	v, _ := c.facts.LoadOrStore(sid, f)
	return v.(Facts)
}

// gitFact describes root's repository: "not a git repository", or its
// branch and whether the tree is clean. named prefixes the root.
func gitFact(root string, named bool) string {
	prefix := ""
	if named {
		prefix = root + ": "
	}
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true})
	if err != nil {
		return prefix + "not a git repository"
	}
	fact := "a git repository"
	if head, err := repo.Head(); err == nil && head.Name().IsBranch() {
		fact += ", branch " + head.Name().Short()
	} else if err == nil {
		fact += ", detached HEAD"
	}
	switch dirty(root) {
	case 1:
		fact += ", uncommitted changes"
	case 0:
		fact += ", clean"
	}
	return prefix + fact
}

// dirty runs git status: 1 when the tree has changes, 0 when clean, -1
// when git could not say within a bounded time (no git binary, a huge
// tree). It reads only the first line of the listing.
func dirty(root string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "--no-optional-locks", "-C", root, "status", "--porcelain")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return -1
	}
	if err := cmd.Start(); err != nil {
		return -1
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "" {
		cancel() // the first line answers; the rest need not be listed
		_ = cmd.Wait()
		return 1
	}
	if cmd.Wait() != nil {
		return -1
	}
	return 0
}
