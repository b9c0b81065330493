package compact

// Policy holds the compaction settings resolved for one model profile.
type Policy struct {
	// Window is the model's context window in tokens.
	Window int
	// MaxOutput is the profile's output cap (0: unknown).
	MaxOutput int
	// Threshold is the fraction of Window above which a request triggers
	// compaction first (govibe.compact.threshold).
	Threshold float64
	// KeepTokens of the newest messages stay verbatim (govibe.compact.keepTokens).
	KeepTokens int
}

// Normalized fills defaults and clamps values so compaction can always
// make progress: KeepTokens never exceeds half the trigger level, or the
// kept part alone would re-trigger.
func (p Policy) Normalized() Policy {
	if p.Window <= 0 {
		p.Window = 128000
	}
	if p.Threshold <= 0 || p.Threshold > 1 {
		p.Threshold = 0.7
	}
	if p.KeepTokens <= 0 {
		p.KeepTokens = 20000
	}
	if limit := int(float64(p.Window) * p.Threshold / 2); p.KeepTokens > limit {
		p.KeepTokens = limit
	}
	return p
}

// Trigger is the token count above which a request compacts first.
func (p Policy) Trigger() int { return int(float64(p.Window) * p.Threshold) }

// Reserve is the output room kept free in a compaction request: the
// profile's output cap, but at most a quarter of the window.
func (p Policy) Reserve() int {
	r := p.Window / 4
	if p.MaxOutput > 0 && p.MaxOutput < r {
		r = p.MaxOutput
	}
	return r
}

// RequestBudget is the largest prompt a compaction request may have.
func (p Policy) RequestBudget() int { return p.Window - p.Reserve() }

// ShouldCompact reports whether a request of estimated tokens must compact
// first.
func (p Policy) ShouldCompact(tokens int) bool { return tokens > p.Trigger() }

// MinTokens is the least a summarised range must hold: below it a state
// snapshot saves nothing, so there is nothing worth compacting yet.
const MinTokens = 512
