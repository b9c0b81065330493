package engine

// Internals the external tests (package engine_test) check.

// ProfileOf is the engine's active model profile.
var ProfileOf = (*Engine).profile
