package logging

import (
	"bytes"
	"regexp"
	"sync"
)

// Redactor removes known secrets and anything shaped like an Authorization
// header or API key. Safe for concurrent use: Set replaces the secret list
// under a lock while writers read it.
type Redactor struct {
	mu      sync.RWMutex
	secrets [][]byte
}

func NewRedactor() *Redactor { return &Redactor{} }

// Set replaces the list of literal secrets (API keys from settings).
func (r *Redactor) Set(secrets ...string) {
	var bs [][]byte
	for _, s := range secrets {
		if len(s) >= 4 {
			bs = append(bs, []byte(s))
		}
	}
	r.mu.Lock()
	r.secrets = bs
	r.mu.Unlock()
}

var patterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*["']?)(bearer\s+)?[^\s"',}]+`),
	regexp.MustCompile(`(?i)((?:api[_-]?key|apikey|x-api-key)["']?\s*[:=]\s*["']?)[^\s"',}]+`),
	regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{8,}`),
}

// Redact returns p with secrets replaced by "[REDACTED]".
func (r *Redactor) Redact(p []byte) []byte {
	r.mu.RLock()
	secrets := r.secrets
	r.mu.RUnlock()
	out := p
	for _, s := range secrets {
		if bytes.Contains(out, s) {
			out = bytes.ReplaceAll(out, s, []byte("[REDACTED]"))
		}
	}
	for i, re := range patterns {
		if i == 2 {
			out = re.ReplaceAll(out, []byte("[REDACTED]"))
			continue
		}
		out = re.ReplaceAll(out, []byte("${1}[REDACTED]"))
	}
	return out
}
