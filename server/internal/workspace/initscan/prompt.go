package initscan

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// maxReadme bounds the README text the /init prompt carries.
const maxReadme = 8 << 10

// Prompt is the /init message: the task, then what the survey of each
// root found (the listing, the README, the files to read), so the model
// reads those files and writes AGENTS.md and the memory levels.
func Prompt(surveys []Survey) string {
	var b strings.Builder
	b.WriteString(`Initialise this project for coding agents.
1. Call load_skill("memory-bootstrap") for the memory levels and their rules. The project has been explored for you (below): skip the skill's exploring steps, read the files listed under "Read these" with read_file (no others unless one is clearly needed), then write the memory levels the skill describes.
2. Write AGENTS.md at the workspace root (update it if it exists): a short overview, the build, run and test commands, and the conventions a contributor must follow.
Every write goes through the normal diff confirmation.
`)
	for _, s := range surveys {
		prefix := ""
		if len(surveys) > 1 {
			prefix = filepath.Base(s.Root) + "/"
			fmt.Fprintf(&b, "\n# Root %s\n", s.Root)
		}
		more := ""
		if s.Partial {
			more = "+"
		}
		fmt.Fprintf(&b, "\n<project_files count=\"%d%s\">\n", s.Total, more)
		for _, f := range s.Files {
			b.WriteString(prefix + f + "\n")
		}
		if s.Total > len(s.Files) {
			fmt.Fprintf(&b, "[%d more not listed; list_files shows them]\n", s.Total-len(s.Files))
		}
		b.WriteString("</project_files>\n")
		if s.Readme != "" {
			text := readCapped(filepath.Join(s.Root, filepath.FromSlash(s.Readme)))
			fmt.Fprintf(&b, "\n<readme path=%q>\n%s\n</readme>\n", prefix+s.Readme, text)
		} else {
			b.WriteString("\nThere is no README.\n")
		}
		if len(s.Picks) > 0 {
			b.WriteString("\nRead these (chosen by name, size and folder):\n")
			for _, p := range s.Picks {
				fmt.Fprintf(&b, "- %s%s (%d bytes)\n", prefix, p.Path, p.Size)
			}
		}
	}
	return b.String()
}

func readCapped(p string) string {
	// One byte past the cap tells a cut file; a FIFO or a device is
	// refused by kind rather than waited on (issue 31).
	data, err := safefile.ReadPrefix(p, maxReadme+1)
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	s := string(data)
	if len(s) > maxReadme {
		cut := maxReadme
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + fmt.Sprintf("\n[cut at %d KB; read_file shows the rest]", maxReadme>>10)
	}
	return strings.TrimSpace(s)
}
