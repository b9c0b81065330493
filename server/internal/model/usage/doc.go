// Package usage keeps the accounting of model requests: every session's
// accumulated usage and cost (a hidden child session's requests count in
// its root's too), what each turn consumed, and the context size the
// provider last reported. It sees the engine only as a Store; the engine
// wraps every model client with Meter.Client and reads the figures back.
//
// # Cost
//
// The metered client (Meter.Client) prices each request at the profile's
// prices when it is made and stores the cost inside the usage
// (llm.Usage.Cost), so it survives in message usage, the session's totals
// (session/list, govibe session list), turn usage and headless results. A
// hidden child session's requests (sub-agents, reviewers) also count in its
// root's totals. The engine computes ContextUse (window, estimate) from
// Meter.Load. Usage is accounting, not a durable point: it commits without
// waiting for the disk (package store, "Durability in a turn").
package usage
