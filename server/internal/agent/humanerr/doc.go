// Package humanerr words a failed model run for the person who sent it: a
// message in their language and the next step the UI offers (Info.Action:
// set the API key, open settings, pick another model, show the logs).
//
// Explain is given only what it reads: the error, the translator of the
// user's language and the active profile's base URL (named when no key is
// set). The message is composed from the error's fields (endpoint, status,
// attempts, the window and the request's size), in the user's language
// throughout; only the provider's own words are quoted as they came. A
// provider that answers a bad key or an unknown model with a plain 400 is
// read through providers.Classify, so it gets the same remedy as a 401.
// A reached budget is worded by budgetgate.Stopped, so the gate's question
// and the final error name the limit alike.
//
// The engine converts Info to its ErrorInfo for the turn's error event.
package humanerr
