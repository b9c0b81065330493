// Package skipdirs is the one list of directory names that walks over a
// workspace leave out: version-control metadata, and the dependency trees,
// caches and build output that tools regenerate. Snapshots, the tools'
// walk, the reviewers' caller search, the anti-repeat fingerprint, the
// skill catalogue and the shell analyser's "build directory" rule all ask
// here, so a name added once is skipped everywhere (issue 12 §4).
package skipdirs

// VCS are version-control metadata folders: never workspace content.
var VCS = []string{".git", ".hg", ".svn"}

// Generated are folders whose content a package manager, a build or a
// tool regenerates, so they are large, churn, and lose nothing when
// skipped or deleted. "vendor" is not here: Go and PHP commit it as
// source; see Dependencies.
var Generated = []string{
	"node_modules", "bower_components",
	"dist", "build", "out", "target", "coverage",
	".venv", "venv", "__pycache__", ".tox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
	".cache", ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache",
	".gradle",
}

// Vendored are folders of third-party source checked into the repository:
// kept in snapshots (they are committed), but not the project's own code
// when looking for callers.
var Vendored = []string{"vendor"}

var (
	vcs       = set(VCS)
	generated = set(Generated)
	vendored  = set(Vendored)
)

func set(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsVCS reports whether a directory base name is version-control metadata.
func IsVCS(name string) bool { return vcs[name] }

// IsGenerated reports whether a directory base name holds regenerated
// content (dependencies, caches, build output).
func IsGenerated(name string) bool { return generated[name] }

// IsVendored reports whether a directory base name holds vendored
// third-party source.
func IsVendored(name string) bool { return vendored[name] }

// NotOwnCode reports whether a directory holds no code of the project's
// own: VCS metadata, regenerated content or vendored dependencies.
func NotOwnCode(name string) bool { return vcs[name] || generated[name] || vendored[name] }
