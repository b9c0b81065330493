package shell

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// A model-written command must not see the user's credentials, whatever
// they are called. Variables are judged by the shape of the name (words
// such as KEY, TOKEN, AUTH), by a list of well-known credential names, and
// by the shape of the value (a URL with a password, a connection string
// with a key, a token with a well-known prefix). A short list would miss
// most of them: an audit found 16 of 42 planted credentials leaking.

// knownSecret are credential variables whose names carry none of the words.
// Connection URLs (DATABASE_URL, MONGODB_URI, REDIS_URL) are judged by their
// value: redis://localhost:6379 is kept for tests, redis://:pw@host is not.
var knownSecret = map[string]bool{"GPG_AGENT_INFO": true, "SSH_AGENT_PID": true}

// keptNames are never scrubbed: builds need them and their names only
// look like a secret word.
var keptNames = map[string]bool{"PWD": true, "OLDPWD": true}

// inertKeyWords are words that start or end with KEY but name no secret.
var inertKeyWords = map[string]bool{"KEYBOARD": true, "KEYMAP": true}

// inertTokenWords contain TOKEN but name no secret: Hugging Face's
// TOKENIZERS_PARALLELISM changes how tests behave when it is dropped.
var inertTokenWords = map[string]bool{"TOKENIZER": true, "TOKENIZERS": true}

// proxyNames carry a proxy URL: its credentials are stripped, the proxy
// itself is kept so builds behind it still work.
var proxyNames = map[string]bool{
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "FTP_PROXY": true,
	"NPM_CONFIG_PROXY": true, "NPM_CONFIG_HTTPS_PROXY": true, "YARN_PROXY": true, "YARN_HTTPS_PROXY": true,
}

var (
	// urlPassword finds scheme://user:password@ (or scheme://:password@).
	urlPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^/@\s:]*:[^/@\s]+@`)
	// urlToken finds scheme://LONGTOKEN@ (a token used as the user name).
	urlToken = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[A-Za-z0-9_\-.~%]{20,}@`)
	// connSecret finds key=value pairs naming a secret, in a connection
	// string ("Server=x;Password=y", "host=x password=y", "AccountKey="),
	// a URL query ("?token=") or JVM options ("-Dx.trustStorePassword=").
	connSecret = regexp.MustCompile(`(?i)(password|passwd|passphrase|secret|token|api[_-]?key|accountkey|sharedaccesskey|sharedaccesssignature)\s*=\s*[^;&\s]`)
	// connShort are short keys that need a boundary before them ("sig=",
	// not "config=").
	connShort = regexp.MustCompile(`(?i)(^|[;\s?&.\-_])(pwd|pass|sig|signature)\s*=\s*[^;&\s]`)
	// bearer finds an HTTP credential inside a value (OTLP headers, curl
	// options kept in a variable).
	bearer = regexp.MustCompile(`(?i)(authorization\s*[=:]|\b(bearer|basic)\s+[A-Za-z0-9._~+/\-]{12,})`)
	// tokenValue matches values that are a credential by their prefix.
	// Stripe (sk_/rk_live_/test_), Google API keys (AIza) and OAuth
	// tokens (ya29.), Hugging Face (hf_), SendGrid (SG.), and JWTs (two
	// base64url JSON segments) are added to the providers' prefixes.
	tokenValue = regexp.MustCompile(`^(-----BEGIN [A-Z ]*PRIVATE KEY|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_|glpat-|xox[abprs]-|AKIA[0-9A-Z]{16}$|sk-[A-Za-z0-9_\-]{20,}|npm_[A-Za-z0-9]{30,}|` +
		`[sr]k_(live|test)_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_\-]{30,}|ya29\.[0-9A-Za-z_\-]{20,}|hf_[A-Za-z0-9]{30,}|SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}|` +
		`eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{4,}\.)`)
)

// IsSecretName reports whether a variable name alone marks it a credential.
func IsSecretName(name string) bool {
	up := strings.ToUpper(name)
	if keptNames[up] {
		return false
	}
	if knownSecret[up] {
		return true
	}
	for _, w := range strings.FieldsFunc(up, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		if secretWord(w) {
			return true
		}
	}
	return false
}

func secretWord(w string) bool {
	switch {
	case (strings.HasPrefix(w, "KEY") || strings.HasSuffix(w, "KEY")) && !inertKeyWords[w],
		strings.Contains(w, "TOKEN") && !inertTokenWords[w], strings.Contains(w, "SECRET"),
		strings.Contains(w, "PASSWORD"), strings.Contains(w, "PASSWD"), strings.Contains(w, "PASSPHRASE"),
		w == "PASS", w == "PWD", w == "PW", w == "DSN", strings.HasSuffix(w, "DSN"),
		strings.Contains(w, "AUTH") && w != "AUTHOR" && w != "AUTHORS",
		strings.Contains(w, "CREDENTIAL"), strings.Contains(w, "WEBHOOK"),
		strings.Contains(w, "SESSION"), strings.Contains(w, "COOKIE"),
		w == "JWT", w == "PAT", w == "PRIVATE":
		return true
	}
	return false
}

// IsSecretValue reports whether a value looks like a credential whatever
// its variable is called.
func IsSecretValue(v string) bool {
	return urlPassword.MatchString(v) || urlToken.MatchString(v) || connSecret.MatchString(v) || connShort.MatchString(v) || bearer.MatchString(v) || tokenValue.MatchString(v)
}

// stripUserinfo removes credentials from a proxy URL; ok is false when the
// value is not a URL with credentials.
func stripUserinfo(v string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(v))
	if err != nil || u.User == nil || u.Host == "" {
		return v, false
	}
	u.User = nil
	return u.String(), true
}

// Scrub returns environ without credentials, and the sorted names it
// removed or changed (never their values). passthrough names variables the
// user keeps on purpose (exact, case-insensitive; "PREFIX_*" keeps a
// family).
func Scrub(environ, passthrough []string) (kept, scrubbed []string) {
	kept = make([]string, 0, len(environ))
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		switch {
		case strings.EqualFold(name, "GOVIBE_API_KEY"):
			// GoVibe's own key is never handed to a command, even on request.
			scrubbed = append(scrubbed, name)
		case passedThrough(name, passthrough):
			kept = append(kept, kv)
		case IsSecretName(name):
			scrubbed = append(scrubbed, name)
		case proxyNames[strings.ToUpper(name)]:
			if clean, ok := stripUserinfo(val); ok {
				kept = append(kept, name+"="+clean)
				scrubbed = append(scrubbed, name)
			} else if IsSecretValue(val) {
				scrubbed = append(scrubbed, name)
			} else {
				kept = append(kept, kv)
			}
		case IsSecretValue(val):
			scrubbed = append(scrubbed, name)
		default:
			kept = append(kept, kv)
		}
	}
	sort.Strings(scrubbed)
	return kept, scrubbed
}

// ScrubEnv is Scrub without passthrough, returning only what is kept.
func ScrubEnv(environ []string) []string {
	kept, _ := Scrub(environ, nil)
	return kept
}

func passedThrough(name string, passthrough []string) bool {
	for _, p := range passthrough {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) && prefix != "" {
				return true
			}
			continue
		}
		if strings.EqualFold(name, p) {
			return true
		}
	}
	return false
}
