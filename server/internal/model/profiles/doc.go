// Package profiles resolves which model profile GoVibe talks to: for a
// role (govibe.roles.<role>, falling back to main), a session (its /model
// or picker choice, else govibe.model), a turn (a custom command's
// `model:` for that turn only), a review (its own *.model setting first),
// a custom command and a sub-agent whose definition names a model
// (written_model.go: another tool's names such as sonnet or haiku are
// never sent as written), and the tool-call protocol a run starts with
// (toolcalling.go: "auto" starts in the text protocol for an endpoint
// that already rejected tool definitions).
//
// A profile is govibe.models' entry or the plain apiBaseUrl/model
// settings, with the provider preset's wire conventions and, for a
// profile written by hand, the preset's figures for its model
// (profile.go). API keys come from the editor's SecretStorage first.
//
// The Resolver is given only what it reads (Options): the settings
// snapshot and keys, the session state store (sessionstate.Model), the
// store's memory of each endpoint, and a notice and translator for what
// it tells the user; never the engine. The engine holds one
// (engine.Engine.Profiles, wired in engine/wiring.go) and the turn runner,
// the capabilities' host adapters and the tests call it directly.
//
// It stands at the top of server/internal rather than nested under a
// domain package (as compact/compaction or review/reviewers are): it
// joins settings (config), provider presets (providers), session state
// and the store's endpoint memory, and is the runtime of none of them
// alone, like titles and usage.
package profiles
