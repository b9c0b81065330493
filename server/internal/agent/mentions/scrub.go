package mentions

import "regexp"

// Terminal output is whatever the user's commands printed: exported keys,
// `env` dumps, tokens echoed by a login. Before it reaches a model request
// the shapes of secrets are replaced, by line: an assignment whose name
// says key/token/secret/password, an Authorization or bearer header, a URL
// carrying a password, a private-key block and the well-known token
// prefixes. The extension host scrubs too; this side is the one that
// decides, since it is the one that sends.
var secretShapes = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`(?s)-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(-----END [A-Z ]*PRIVATE KEY-----|$)`), "[private key removed]"},
	{regexp.MustCompile(`(?i)(authorization\s*[:=]\s*)(?:(?:bearer|basic|token)\s+)?[^\s"',]+`), "${1}[REDACTED]"},
	{regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/\-]{12,}=*`), "${1} [REDACTED]"},
	{regexp.MustCompile(`(?i)\b([A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)[A-Z0-9_]*)(\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s]+)`), "${1}${2}[REDACTED]"},
	{regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^/@\s:]*:)[^/@\s]+@`), "${1}[REDACTED]@"},
	{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abprs]-[A-Za-z0-9\-]{10,}|AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_\-]{20,}|npm_[A-Za-z0-9]{30,})\b`), "[REDACTED]"},
}

// ScrubSecrets replaces what looks like a credential in text.
func ScrubSecrets(text string) string {
	for _, s := range secretShapes {
		text = s.re.ReplaceAllString(text, s.repl)
	}
	return text
}
