package evalsuite

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
)

// Env is what the tasks share for a suite run: a local web server whose
// pages the web tasks fetch, and the requests it saw.
type Env struct {
	srv  *httptest.Server
	mu   sync.Mutex
	hits []string // request paths since the last attempt started
}

// NewEnv starts the suite's web server; Close stops it.
func NewEnv() *Env {
	e := &Env{}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	return e
}

// Close stops the web server.
func (e *Env) Close() { e.srv.Close() }

// URL is the web server's base URL.
func (e *Env) URL() string { return e.srv.URL }

// Host is the web server's host name, without the port, as
// web.allowHosts takes it.
func (e *Env) Host() string {
	u, _ := url.Parse(e.srv.URL)
	return u.Hostname()
}

// Hits returns the paths requested since the current attempt began.
func (e *Env) Hits() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.hits...)
}

func (e *Env) resetHits() {
	e.mu.Lock()
	e.hits = nil
	e.mu.Unlock()
}

func (e *Env) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	e.hits = append(e.hits, r.URL.Path)
	e.mu.Unlock()
	page, ok := pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, strings.ReplaceAll(page, "{{BASE}}", e.srv.URL))
}

// pages are the documents the web server serves, by path.
var pages = map[string]string{}

// newWorkspace creates a temporary directory, runs the task's setup in it
// and commits the result, so a checker can ask git what changed; then the
// task's Dirty adds the uncommitted work of someone else.
func newWorkspace(env *Env, t Task) (string, error) {
	dir, err := os.MkdirTemp("", "govibe-eval-"+t.Name+"-")
	if err != nil {
		return "", err
	}
	if err := t.Setup(env, dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=govibe-eval", "-c", "user.email=eval@govibe.invalid", "-c", "commit.gpgsign=false", "commit", "-qm", "task " + t.Name}} {
		if _, err := git(dir, args...); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	if t.Dirty != nil {
		if err := t.Dirty(dir); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// changedFiles lists the paths git sees as modified, added, deleted or
// untracked since the task's commit (ignored files excluded).
func changedFiles(dir string) ([]string, error) {
	out, err := git(dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, rec := range strings.Split(out, "\x00") {
		if len(rec) > 3 {
			files = append(files, rec[3:])
		}
	}
	sort.Strings(files)
	return files, nil
}

// goTest runs `go test ./...` in dir; the error carries its output.
func goTest(dir string) error {
	return goTool(dir, "test", "-count=1", "./...")
}

// goTool runs the go command in dir; the error carries the end of its
// output.
func goTool(dir string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s fails: %s", args[0], lastLines(string(out), 8))
	}
	return nil
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}

func writeFiles(dir string, files map[string]string) error {
	for name, content := range files {
		p := dir + string(os.PathSeparator) + name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			if err := os.MkdirAll(dir+"/"+name[:i], 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
