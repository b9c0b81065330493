package shell

import (
	"regexp"
	"strings"
)

// secretName matches environment variable names that look like credentials.
var secretName = regexp.MustCompile(`(?i)(_API_KEY|_APIKEY|_TOKEN|_SECRET|_SECRET_KEY|_ACCESS_KEY|_PRIVATE_KEY|_CREDENTIALS?)$|PASSWORD|PASSWD|^GOVIBE_API_KEY$|^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|AZURE_OPENAI|MISTRAL|GROQ|DEEPSEEK|OPENROUTER|XAI)_|^AWS_SECRET|^AWS_SESSION_TOKEN$|^GH_TOKEN$|^GITHUB_TOKEN$|^NPM_TOKEN$`)

// ScrubEnv returns environ without variables whose names look like API
// keys, tokens, secrets or passwords, so a model-written command cannot
// read the user's credentials from its environment.
func ScrubEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if IsSecretName(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// IsSecretName reports whether an environment variable name is scrubbed.
func IsSecretName(name string) bool { return secretName.MatchString(name) }
