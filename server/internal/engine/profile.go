package engine

import "github.com/govibe/govibe/server/internal/model/profiles"

// Profile is a resolved model profile (profiles.Resolver, e.Profiles): the
// turn runner's signatures (client, compactPolicy, requestToolDefs) take it
// under the engine's own name.
type Profile = profiles.Profile
