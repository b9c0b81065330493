package shell

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// A command must not see the user's credentials, whatever they are called.
// The boundary is an allowlist (safeNames): a scrub of bad shapes missed 26
// of 68 credential shapes in an audit. The shape checks below stay as the
// second layer: an allowlisted variable whose value is a credential (a
// proxy with a password, a GOPROXY with a token) is dropped too, and they
// name what was withheld in the log.

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

// safeNames is the environment a command gets: what locates things, the
// locale and the terminal, and nothing else. Children get this set plus
// the user's explicit passthrough; a variable of any other name is not
// passed, whatever it looks like, so a credential with a new prefix or an
// innocent name cannot leak. Variables that load code (LD_PRELOAD,
// BASH_ENV, NODE_OPTIONS, PYTHONSTARTUP, PERL5OPT, GIT_CONFIG_*, …) are
// never in it.
var safeNames = map[string]bool{
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "TERM": true, "COLORTERM": true,
	"LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true, "PWD": true, "OLDPWD": true,
	"COLUMNS": true, "LINES": true, "NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CI": true,
	"XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true, "XDG_DATA_HOME": true, "XDG_STATE_HOME": true,
	// Toolchains: where they live and where their caches are.
	"GOPATH": true, "GOROOT": true, "GOCACHE": true, "GOMODCACHE": true, "GOFLAGS": true, "GOPROXY": true,
	"GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GOSUMDB": true, "GOTOOLCHAIN": true, "CGO_ENABLED": true,
	"CARGO_HOME": true, "RUSTUP_HOME": true, "RUSTUP_TOOLCHAIN": true,
	"JAVA_HOME": true, "MAVEN_HOME": true, "M2_HOME": true, "GRADLE_USER_HOME": true, "ANDROID_HOME": true, "ANDROID_SDK_ROOT": true,
	"VIRTUAL_ENV": true, "CONDA_PREFIX": true, "CONDA_DEFAULT_ENV": true, "PYENV_ROOT": true, "PYENV_VERSION": true, "PIP_CACHE_DIR": true,
	"NVM_DIR": true, "NVM_BIN": true, "VOLTA_HOME": true, "PNPM_HOME": true, "BUN_INSTALL": true, "DENO_DIR": true,
	"NPM_CONFIG_CACHE": true, "YARN_CACHE_FOLDER": true,
	"DOTNET_ROOT": true, "GEM_HOME": true, "GEM_PATH": true, "RBENV_ROOT": true, "SDKMAN_DIR": true, "HOMEBREW_PREFIX": true,
	"PKG_CONFIG_PATH": true,
	// Identity git writes into commits (no credential, no program).
	"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true,
	// Windows' own locators.
	"SYSTEMROOT": true, "WINDIR": true, "COMSPEC": true, "PATHEXT": true, "USERPROFILE": true, "APPDATA": true,
	"LOCALAPPDATA": true, "PROGRAMFILES": true, "PROGRAMDATA": true, "TEMP": true, "TMP": true,
}

// Safe reports whether a variable of this name is in the safe set (the
// proxy variables are, once their credentials are stripped).
func Safe(name string) bool {
	up := strings.ToUpper(name)
	// GOVIBE_* are GoVibe's own switches (GOVIBE_BASE_URL, the sandbox's
	// mechanism, the test suite's process mark); Scrub still drops the key
	// and any whose name or value is a credential's.
	return safeNames[up] || strings.HasPrefix(up, "LC_") || proxyNames[up] || up == "NO_PROXY" || strings.HasPrefix(up, "GOVIBE_")
}

// Scrub returns the safe part of environ: the allowlisted variables whose
// values carry no credential (proxies with their credentials stripped),
// plus passthrough (names the user keeps on purpose: exact,
// case-insensitive, or "PREFIX_*" for a family). reported names, sorted,
// the dropped or changed variables that look like credentials (never
// their values); ordinary variables outside the set are dropped silently.
func Scrub(environ, passthrough []string) (kept, reported []string) {
	kept = make([]string, 0, len(environ))
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		secret := IsSecretName(name) || IsSecretValue(val)
		switch {
		case strings.EqualFold(name, "GOVIBE_API_KEY"):
			// GoVibe's own key is never handed to a command, even on request.
			reported = append(reported, name)
		case passedThrough(name, passthrough):
			kept = append(kept, kv)
		case proxyNames[strings.ToUpper(name)]:
			if clean, ok := stripUserinfo(val); ok {
				kept = append(kept, name+"="+clean)
				reported = append(reported, name)
			} else if secret {
				reported = append(reported, name)
			} else {
				kept = append(kept, kv)
			}
		case Safe(name) && !secret:
			kept = append(kept, kv)
		case secret:
			reported = append(reported, name)
		}
	}
	sort.Strings(reported)
	return kept, reported
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
