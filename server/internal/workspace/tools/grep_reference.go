package tools

// RipgrepCommand is the rg on PATH ("" when ripgrep is not installed) and
// the arguments grep_search passes it for pattern with the tool's defaults
// (literal, case-insensitive, every root): the command a benchmark runs as
// its "rg direct" reference, so that both sides do the same work.
func RipgrepCommand(pattern string) (rg string, args []string) {
	return findRipgrep(""), ripgrepArgs(grepQuery{pattern: pattern})
}

// GrepCollectCap is how many matching lines grep_search collects before it
// stops looking: past it, the tool does less work than a full rg run.
const GrepCollectCap = grepCollectCap
