// Package problem is the one shape of "this file has a problem at this
// line" that every loader of user configuration reports (skills, custom
// commands, agent definitions, hooks and MCP settings): the UI, the log
// and `govibe config` print them the same way.
package problem

import "fmt"

// Problem is one finding in a configuration file or setting. Line is
// 1-based, 0 when the problem is about the file (or setting) as a whole.
type Problem struct {
	Path    string
	Line    int
	Message string
}

// Error reads "path:line: message", or "path: message" without a line.
func (p Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.Path, p.Message)
}
