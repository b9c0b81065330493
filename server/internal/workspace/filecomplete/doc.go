// Package filecomplete answers the chat input's @-mention autocomplete:
// fuzzy matching of workspace paths, walked with the tools' own walker
// (.gitignore honoured, hidden files skipped). On a large tree the walk
// stops at a time and count budget, so the first results come fast; the
// answer then says it is partial.
//
// # Large trees
//
// files/complete walks with an 80 ms budget (partial when cut). A root the
// budget cannot walk is listed in the background (Index, refreshed after 3 s:
// a listing older than MaxAge answers once more while a fresh walk replaces
// it), so later keystrokes search every file: on 100k files the first answer
// comes in the budget (81 ms wall, goal < 180 ms) and a keystroke is answered
// from the listing in 4 ms of CPU (goal < 50 ms), measured by make bench
// (completebench: a fresh index's first answer and a search of the listing on
// a generated 100k-file tree). TestLargeRootIsListedInTheBackground checks the
// same path on 4,000 files in make test.
package filecomplete
