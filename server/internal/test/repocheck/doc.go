// Package repocheck holds repository-level checks that no single package
// owns, run by make test-go like any other package's tests:
//
//   - largefiles_test.go: no tracked file over 1 MB unless it is on the
//     commented testdata list there (build outputs and binaries belong in
//     .gitignore, never in git: they stay in the history forever);
//   - docpaths_test.go: every file or package path that docs/architecture.md
//     and README.md name in backticks (or link to) exists in the tree, and
//     every folder directly under server/internal has a line in the map,
//     so the map cannot drift from the code unnoticed.
//
// Both need the repository's work tree and git; they skip, saying why, when
// run outside a git checkout (a source archive).
package repocheck
