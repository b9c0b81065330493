package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
	"github.com/govibe/govibe/server/internal/util/skipdirs"
	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Limits on what one skill may expose.
const (
	maxFiles    = 200       // files listed per skill
	maxReadSize = 256 << 10 // bytes returned by ReadFile
	maxSkills   = 200       // skills per folder
)

// Dir is one folder of skills.
type Dir struct {
	Path   string
	Source Source
	FS     fs.FS // set for the built-ins; Path is then a label
}

// Dirs lists the folders skills load from, highest precedence first:
// project .govibe/skills, user ~/.govibe/skills, the built-ins, then the
// folders other tools use, read as they are.
func Dirs(home string, roots []string, builtin fs.FS) []Dir {
	var out []Dir
	for _, r := range roots {
		out = append(out, Dir{Path: filepath.Join(r, ".govibe", "skills"), Source: SourceProject})
	}
	if home != "" {
		out = append(out, Dir{Path: filepath.Join(home, ".govibe", "skills"), Source: SourceUser})
	}
	if builtin != nil {
		out = append(out, Dir{Path: "builtin", Source: SourceBuiltin, FS: builtin})
	}
	for _, r := range roots {
		for _, d := range []string{".OpenVibe", ".claude", ".github"} {
			out = append(out, Dir{Path: filepath.Join(r, d, "skills"), Source: SourceCompat})
		}
	}
	if home != "" {
		for _, d := range []string{".claude", ".copilot"} {
			out = append(out, Dir{Path: filepath.Join(home, d, "skills"), Source: SourceUserCompat})
		}
	}
	return out
}

// Catalog is the set of skills found at one moment. Immutable and safe for
// concurrent use; reload by building a new one.
type Catalog struct {
	byName map[string]*Skill
	names  []string
	// Problems are malformed skills; Skipped are skills left out on
	// purpose (trust, shadowed by a higher-precedence skill).
	Problems []Problem
	Skipped  []Problem
}

// Load reads every dir in order; the first skill of a name wins and later
// ones are reported as shadowed. In an untrusted workspace, project skills
// are skipped, and so are workspace skills from other tools' folders that
// can act (scripts or allowedTools): a cloned repository must not get to
// run anything.
func Load(dirs []Dir, trusted bool) *Catalog {
	c := &Catalog{byName: map[string]*Skill{}}
	for _, d := range dirs {
		if d.Source == SourceProject && !trusted {
			if hasSkills(d) {
				c.Skipped = append(c.Skipped, Problem{Path: d.Path, Message: "project skills are loaded only in a trusted workspace"})
			}
			continue
		}
		for _, s := range c.readDir(d) {
			if s.Source == SourceCompat && !trusted && s.CanAct() {
				c.Skipped = append(c.Skipped, Problem{Path: s.Dir, Message: fmt.Sprintf("skill %q carries scripts or allowedTools and is loaded only in a trusted workspace", s.Name)})
				continue
			}
			if prev, dup := c.byName[s.Name]; dup {
				c.Skipped = append(c.Skipped, Problem{Path: s.Dir, Message: fmt.Sprintf("skill %q is shadowed by the %s skill at %s", s.Name, prev.Source, prev.Dir)})
				continue
			}
			c.byName[s.Name] = s
			c.names = append(c.names, s.Name)
		}
	}
	sort.Strings(c.names)
	return c
}

func hasSkills(d Dir) bool {
	ents, err := os.ReadDir(d.Path)
	return err == nil && len(ents) > 0
}

func (c *Catalog) readDir(d Dir) []*Skill {
	var base fs.FS
	if d.FS != nil {
		base = d.FS
	} else {
		real, err := filepath.EvalSymlinks(d.Path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				c.Problems = append(c.Problems, Problem{Path: d.Path, Message: err.Error()})
			}
			return nil
		}
		base = os.DirFS(real)
		d.Path = real
	}
	ents, err := fs.ReadDir(base, ".")
	if err != nil {
		c.Problems = append(c.Problems, Problem{Path: d.Path, Message: err.Error()})
		return nil
	}
	var out []*Skill
	for _, e := range ents {
		if len(out) >= maxSkills {
			c.Problems = append(c.Problems, Problem{Path: d.Path, Message: fmt.Sprintf("more than %d skills; the rest were not read", maxSkills)})
			break
		}
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub, err := fs.Sub(base, e.Name())
		if err != nil {
			continue
		}
		if _, err := fs.Stat(sub, "SKILL.md"); err != nil {
			continue // a folder without SKILL.md is not a skill
		}
		display := path.Join(filepath.ToSlash(d.Path), e.Name())
		if d.FS == nil {
			display = filepath.Join(d.Path, e.Name())
		}
		s, p := parse(sub, e.Name(), display)
		if p != nil {
			c.Problems = append(c.Problems, *p)
			continue
		}
		s.Source = d.Source
		if d.FS != nil {
			s.Dir = "builtin:" + e.Name()
		}
		out = append(out, s)
	}
	return out
}

// Names lists the skills, sorted.
func (c *Catalog) Names() []string { return append([]string(nil), c.names...) }

// Get finds a skill by name.
func (c *Catalog) Get(name string) (*Skill, bool) {
	s, ok := c.byName[strings.TrimSpace(name)]
	return s, ok
}

// PromptSection is what the system prompt says about skills: one line per
// skill, sorted by name, so the prompt prefix stays byte-identical until
// the set of skills changes. Empty when there are none.
func (c *Catalog) PromptSection() string {
	if len(c.names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Skills (call load_skill(name) to read one before following it):\n")
	for _, n := range c.names {
		fmt.Fprintf(&b, "- %s: %s\n", n, promptDescription(c.byName[n].Description))
	}
	return b.String()
}

// MaxDescription is the Agent Skills specification's limit on a skill's
// description, in characters: all of it reaches the model, since it is
// how the model knows when to use the skill.
const MaxDescription = 1024

// promptDescription is a description cut at MaxDescription characters
// (never inside a UTF-8 sequence).
func promptDescription(d string) string {
	if utf8.RuneCountInString(d) <= MaxDescription {
		return d
	}
	r := []rune(d)
	return string(r[:MaxDescription]) + "…"
}

// Folder is where the skill's files are on disk, for running its scripts
// (`python scripts/x.py` from there); "" for a skill built into GoVibe,
// whose files are only read (ReadFile).
func (s *Skill) Folder() string {
	if strings.HasPrefix(s.Dir, "builtin:") {
		return ""
	}
	return s.Dir
}

// Files lists the skill's files other than SKILL.md (slash-separated,
// relative to the skill folder), at most maxFiles, skipping hidden folders.
func (s *Skill) Files() (files []string, truncated bool) {
	_ = fs.WalkDir(s.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || skipdirs.IsGenerated(d.Name())) {
				return fs.SkipDir
			}
			return nil
		}
		if p == "SKILL.md" {
			return nil
		}
		if len(files) >= maxFiles {
			truncated = true
			return fs.SkipAll
		}
		files = append(files, p)
		return nil
	})
	return files, truncated
}

// ReadFile reads a file of the skill. rel is relative to the skill folder;
// absolute paths, '..' and symlinks leading out of the folder are refused.
func (s *Skill) ReadFile(rel string) ([]byte, error) {
	clean := path.Clean(strings.ReplaceAll(strings.TrimSpace(rel), "\\", "/"))
	if rel == "" || strings.HasPrefix(clean, "/") || !fs.ValidPath(clean) || filepath.VolumeName(rel) != "" {
		return nil, fmt.Errorf("%q is not a path inside the skill %s; use a relative path such as docs/guide.md", rel, s.Name)
	}
	// Skills name their files as their authors typed them (REFERENCE.md
	// for reference.md): a path that does not exist as written is looked
	// up without regard to case, as on the systems the skills come from.
	clean = s.foldPath(clean)
	if !strings.HasPrefix(s.Dir, "builtin:") {
		// Real files: the sandbox resolves symlinks and refuses any that
		// lead out of the skill folder.
		abs, err := sandbox.New([]string{s.Dir}).Resolve(filepath.Join(s.Dir, filepath.FromSlash(clean)))
		if err != nil {
			return nil, fmt.Errorf("%q is outside the skill %s", rel, s.Name)
		}
		return readCapped(abs)
	}
	f, err := s.fsys.Open(clean)
	if err != nil {
		return nil, fmt.Errorf("the skill %s has no file %q", s.Name, rel)
	}
	defer f.Close()
	return readAllCapped(f)
}

func readCapped(abs string) ([]byte, error) {
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("no such file in the skill: %s", filepath.Base(abs))
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a folder; read_skill_file reads files (load_skill lists them)", filepath.Base(abs))
	}
	// A FIFO or a device in the skill folder is refused by kind, never
	// waited on or read without end (issue 31).
	f, _, err := safefile.Open(abs, safefile.Options{})
	if err != nil {
		var ke *safefile.KindError
		if errors.As(err, &ke) {
			return nil, errors.New(ke.Explain(filepath.Base(abs)))
		}
		return nil, err
	}
	defer f.Close()
	return readAllCapped(f)
}

func readAllCapped(f fs.File) ([]byte, error) {
	buf := make([]byte, maxReadSize+1)
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			break
		}
	}
	if n > maxReadSize {
		return buf[:maxReadSize], errTruncated
	}
	return buf[:n], nil
}

var errTruncated = errors.New("truncated")

// IsTruncated reports whether ReadFile's error only says the file was cut
// at the size limit (the data returned is still valid).
func IsTruncated(err error) bool { return errors.Is(err, errTruncated) }

// foldPath maps a path that does not exist as written to the one file or
// folder per segment whose name matches it without regard to case; a
// segment that matches none or several is left as written (the read then
// fails or takes the exact name).
func (s *Skill) foldPath(clean string) string {
	if _, err := fs.Stat(s.fsys, clean); err == nil {
		return clean
	}
	segs := strings.Split(clean, "/")
	dir := "."
	for i, seg := range segs {
		entries, err := fs.ReadDir(s.fsys, dir)
		if err != nil {
			return clean
		}
		match := ""
		for _, e := range entries {
			if e.Name() == seg {
				match = seg
				break
			}
			if strings.EqualFold(e.Name(), seg) {
				if match != "" {
					return clean // ambiguous: README.md and readme.md
				}
				match = e.Name()
			}
		}
		if match == "" {
			return clean
		}
		segs[i] = match
		dir = path.Join(dir, match)
	}
	return strings.Join(segs, "/")
}
