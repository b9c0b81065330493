// Package web fetches pages for the model without letting a prompt turn the
// fetch against the user's own network (SSRF). Every address is checked at
// dial time, after resolution, so a DNS answer that changes between a check
// and a connect (rebinding) cannot slip through: the fetcher resolves once,
// checks every address, and dials the checked IPs only.
//
// # Policy
//
// One Fetcher per engine (a shared rate limiter), its policy from
// govibe.web.allowHosts (user scope only: host names web_fetch and @url may
// reach although they resolve to private or internal addresses). Fetcher.Check
// runs the policy before any confirmation, so no card is shown for a refused
// address; whether a fetch asks is package approval's decision. The browser
// sub-agent uses the same Policy for its request routing and its proxy's
// dialer.
package web
