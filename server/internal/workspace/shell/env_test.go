//go:build !windows

package shell

import (
	"context"
	"strings"
	"testing"
)

// dropped are planted credentials: every one must be absent from a
// command's environment. They include the 16 an audit saw leak.
var dropped = map[string]string{
	"GOVIBE_API_KEY":                  "sk-govibe-0123456789",
	"OPENAI_API_KEY":                  "sk-1",
	"API_KEY":                         "plain",
	"TOKEN":                           "t0k",
	"MY_SERVICE_TOKEN":                "t",
	"GITHUB_TOKEN":                    "gh",
	"APP_SECRET":                      "s",
	"SECRET_KEY_BASE":                 "abc",
	"DB_PASSWORD":                     "p",
	"mysql_password_file":             "/run/x",
	"MYSQL_PWD":                       "pw",
	"SMTP_PASS":                       "pw",
	"LDAP_PASSWD":                     "pw",
	"AWS_ACCESS_KEY_ID":               "AKIAABCDEFGHIJKLMNOP",
	"AWS_SECRET_ACCESS_KEY":           "x",
	"AWS_SESSION_TOKEN":               "x",
	"NPM_CONFIG__AUTH":                "dXNlcjpwYXNz",
	"NPM_CONFIG__AUTHTOKEN":           "npm_x",
	"npm_config__authToken":           "npm_x",
	"DOCKER_AUTH_CONFIG":              `{"auths":{}}`,
	"SSH_AUTH_SOCK":                   "/tmp/ssh-agent.sock",
	"GPG_AGENT_INFO":                  "/run/gpg:0:1",
	"SENTRY_DSN":                      "https://abc@o1.ingest.sentry.io/1",
	"SLACK_WEBHOOK_URL":               "https://hooks.slack.com/services/T/B/X",
	"GOOGLE_APPLICATION_CREDENTIALS":  "/home/u/key.json",
	"RAILS_SESSION_KEY":               "k",
	"COOKIE_JAR":                      "c",
	"OAUTH_CLIENT_ID":                 "id",
	"CI_JOB_JWT":                      "eyJ",
	"GITLAB_PAT":                      "glpat-xxxxxxxxxxxxxxxxxxxx",
	"apiKey":                          "camel",
	"DATABASE_URL":                    "postgres://app:hunter2@db:5432/app",
	"MONGODB_URI":                     "mongodb://root:example@mongo1:27017,mongo2:27017/db?replicaSet=rs0",
	"REDIS_URL":                       "redis://:s3cret@cache:6379/0",
	"AMQP_ADDR":                       "amqp://guest:guest@rabbit:5672/",
	"GIT_REMOTE":                      "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git",
	"AZURE_STORAGE_CONNECTION_STRING": "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFy;EndpointSuffix=core.windows.net",
	"MSSQL_CONN":                      "Server=db;Database=app;User Id=sa;Password=Str0ng!;",
	"PG_CONN":                         "host=db port=5432 user=app password=hunter2",
	"BLOB_SAS_URL":                    "https://acct.blob.core.windows.net/c?sv=2020&sig=abcDEF123",
	"OTEL_EXPORTER_OTLP_HEADERS":      "Authorization=Bearer abcdefghijklmnop",
	"DEPLOY_KEY_PEM":                  "-----BEGIN OPENSSH PRIVATE KEY-----",
	"SOME_SETTING":                    "ghp_abcdefghijklmnopqrstuvwxyz0123",
	"JAVA_TOOL_OPTIONS":               "-Xmx1g -Djavax.net.ssl.trustStorePassword=changeit",
}

// kept are the allowlisted variables builds need, including some whose
// names or values come close to a credential rule.
var kept = map[string]string{
	"LC_ALL": "C.UTF-8", "LC_CTYPE": "UTF-8", "LOGNAME": "ada", "TMPDIR": "/tmp", "GOCACHE": "/home/u/.cache/go-build",
	"GOMODCACHE": "/home/u/go/pkg/mod", "GOPROXY": "https://proxy.golang.org,direct", "RUSTUP_HOME": "/home/u/.rustup",
	"VIRTUAL_ENV": "/work/.venv", "COLORTERM": "truecolor", "GIT_COMMITTER_EMAIL": "ada@example.com", "CI": "true",
	"GOVIBE_E2E_MARK": "e2e-0123", "GOVIBE_SANDBOX_MECHANISM": "landlock",
	"PATH":             "/usr/local/bin:/usr/bin:/bin",
	"HOME":             "/home/u",
	"PWD":              "/work",
	"OLDPWD":           "/",
	"GOPATH":           "/home/u/go",
	"GOFLAGS":          "-mod=mod",
	"JAVA_HOME":        "/usr/lib/jvm/17",
	"LANG":             "C.UTF-8",
	"TERM":             "xterm-256color",
	"GIT_AUTHOR_NAME":  "Ada",
	"GIT_AUTHOR_EMAIL": "ada@example.com",
	"NO_PROXY":         "localhost,127.0.0.1,.corp",
	"HTTP_PROXY":       "http://proxy.corp:3128",
	"CGO_ENABLED":      "0",
	"CARGO_HOME":       "/home/u/.cargo",
	"USER":             "ada",
	"SHELL":            "/bin/bash",
	"TZ":               "UTC",
}

func environ(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for k, v := range m {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// checkScrub scrubs an environment of dropped and kept and fails on a
// dropped name that survives or a kept one that does not survive as is;
// it returns the names Scrub reports.
func checkScrub(t *testing.T, dropped, kept map[string]string) []string {
	t.Helper()
	got, scrubbed := Scrub(environ(dropped, kept), nil)
	have := map[string]string{}
	for _, kv := range got {
		k, v, _ := strings.Cut(kv, "=")
		have[k] = v
	}
	for k := range dropped {
		if _, ok := have[k]; ok {
			t.Errorf("%s=%s must be scrubbed", k, dropped[k])
		}
	}
	for k, v := range kept {
		if have[k] != v {
			t.Errorf("%s=%s must be kept as is, got %q", k, v, have[k])
		}
	}
	return scrubbed
}

func TestScrubByShape(t *testing.T) {
	if len(dropped) < 30 || len(kept) < 25 {
		t.Fatalf("the table must hold at least 30 of each (%d dropped, %d kept)", len(dropped), len(kept))
	}
	scrubbed := checkScrub(t, dropped, kept)
	if len(scrubbed) != len(dropped) {
		t.Errorf("scrubbed names %v: want %d", scrubbed, len(dropped))
	}
	for _, n := range scrubbed {
		if strings.Contains(n, "=") {
			t.Errorf("scrubbed list must hold names only, got %q", n)
		}
	}
}

func TestScrubStripsProxyCredentials(t *testing.T) {
	got, scrubbed := Scrub([]string{
		"HTTPS_PROXY=http://alice:pa55@proxy.corp:3128",
		"http_proxy=http://bob:pw@proxy.corp:8080/",
		"ALL_PROXY=socks5://proxy.corp:1080",
	}, nil)
	want := []string{"HTTPS_PROXY=http://proxy.corp:3128", "http_proxy=http://proxy.corp:8080/", "ALL_PROXY=socks5://proxy.corp:1080"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got %q", got)
	}
	if strings.Join(scrubbed, ",") != "HTTPS_PROXY,http_proxy" {
		t.Fatalf("scrubbed %v", scrubbed)
	}
}

// ordinary are variables outside the allowlist that look like nothing: a
// scrub of bad shapes passed them, and with them any credential of a shape
// it did not know. They are withheld, and not reported as credentials.
var ordinary = map[string]string{
	"HARMLESS_SETTING": "kept", "NODE_OPTIONS": "--require ./evil.js", "LD_PRELOAD": "./lib.so", "BASH_ENV": "./x.sh",
	"PYTHONSTARTUP": "./x.py", "PERL5OPT": "-Mevil", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor",
	"PYTHONPATH": "/work/src", "DOCS_URL": "https://example.com/docs", "LS_COLORS": "rs=0", "MAVEN_OPTS": "-Xmx1g",
	// Credential shapes with neutral names, which a scrub of shapes missed.
	"DO_THING": "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
	"PUBLISH":  "pypi-AgEIcHlwaS5vcmcCJGE0ZjY3", "SHOP": "shpat_0123456789abcdef0123456789abcdef",
	"TEAMS_HOOK_URL_X": "https://example.webhook.office.com/webhookb2/abc@def/IncomingWebhook/x/y", "AGE": "AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
}

func TestScrubIsAnAllowlist(t *testing.T) {
	got, reported := Scrub(environ(ordinary, kept), nil)
	have := map[string]bool{}
	for _, kv := range got {
		k, _, _ := strings.Cut(kv, "=")
		have[k] = true
	}
	for k := range ordinary {
		if have[k] {
			t.Errorf("%s is outside the allowlist and must not reach a command", k)
		}
	}
	for k := range kept {
		if !have[k] {
			t.Errorf("%s is allowlisted and must be kept", k)
		}
	}
	for _, n := range reported {
		if n == "HARMLESS_SETTING" || n == "LS_COLORS" {
			t.Errorf("an ordinary variable was reported as a credential: %s", n)
		}
	}
}

func TestScrubPassthrough(t *testing.T) {
	got, scrubbed := Scrub([]string{"NPM_TOKEN=n", "CI_JOB_TOKEN=c", "CI_REGISTRY_PASSWORD=r", "GITHUB_TOKEN=g", "GOVIBE_API_KEY=k"},
		[]string{"npm_token", "CI_*", " ", "GOVIBE_*"})
	if strings.Join(got, ",") != "NPM_TOKEN=n,CI_JOB_TOKEN=c,CI_REGISTRY_PASSWORD=r" || strings.Join(scrubbed, ",") != "GITHUB_TOKEN,GOVIBE_API_KEY" {
		t.Fatalf("kept %v scrubbed %v", got, scrubbed)
	}
	// A lone "*" is not a way to turn scrubbing off by accident.
	if got, _ := Scrub([]string{"GITHUB_TOKEN=g"}, []string{"*"}); len(got) != 0 {
		t.Fatalf("a bare * must not pass everything: %v", got)
	}
}

// TestRunScrubsAndReportsNames runs a real command: the environment it sees
// lacks the credentials, and the names (not values) reach OnScrub.
func TestRunScrubsAndReportsNames(t *testing.T) {
	for k, v := range dropped {
		t.Setenv(k, v)
	}
	t.Setenv("HTTPS_PROXY", "http://alice:pa55@proxy.corp:3128")
	t.Setenv("KEEP_ME_TOKEN", "on-purpose")
	var names []string
	res := run(t, context.Background(), Spec{Command: "env", Passthrough: []string{"KEEP_ME_TOKEN"},
		OnScrub: func(n []string) { names = n }})
	for k, v := range dropped {
		if strings.Contains(res.Stdout, "\n"+k+"=") || strings.Contains(res.Stdout, v) && len(v) > 8 {
			t.Errorf("%s leaked into the command environment", k)
		}
	}
	if strings.Contains(res.Stdout, "pa55") || !strings.Contains(res.Stdout, "HTTPS_PROXY=http://proxy.corp:3128") {
		t.Errorf("proxy credentials must be stripped, proxy kept:\n%s", res.Stdout)
	}
	if !strings.Contains(res.Stdout, "KEEP_ME_TOKEN=on-purpose") || !strings.Contains(res.Stdout, "PATH=") {
		t.Errorf("passthrough and ordinary variables must be kept")
	}
	joined := strings.Join(names, ",")
	if !strings.Contains(joined, "GOVIBE_API_KEY") || !strings.Contains(joined, "HTTPS_PROXY") || strings.Contains(joined, "KEEP_ME_TOKEN") {
		t.Errorf("OnScrub names: %v", names)
	}
	for _, v := range dropped {
		if len(v) > 3 && strings.Contains(joined, v) {
			t.Errorf("OnScrub must not carry values: %v", names)
		}
	}
}
