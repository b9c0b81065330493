// Package shell runs one shell command for the agent: in its own process
// group, with stdin closed, a scrubbed environment, a timeout, and output
// capped so a runaway command cannot flood the model's context.
//
// # The environment of a command
//
// Every command's environment is scrubbed by shape (Scrub): names with the
// words KEY, TOKEN, SECRET, PASSWORD, PASSWD, PWD, PW, AUTH, CREDENTIAL, DSN,
// WEBHOOK, SESSION, COOKIE (not PWD, OLDPWD, GIT_AUTHOR_*, TOKENIZERS_*),
// SSH_AUTH_SOCK, GPG_AGENT_INFO, and values that are a URL with a password or
// a long token as user, a connection string with a key or password, a bearer
// header, a JWT or a well-known token prefix (GitHub, GitLab, Slack, AWS,
// OpenAI, npm, Stripe, Google, Hugging Face, SendGrid). Proxy variables keep
// the proxy without its credentials. govibe.shell.env.passthrough keeps named
// variables (NAME or PREFIX_*); scrubbed names (never values) are logged at
// debug level. ripgrep gets the same scrubbed environment. This is the second
// layer: package secretenv keeps credentials out of the sidecar's own start-up
// environment block.
package shell
