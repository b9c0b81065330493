package mentions

import (
	"context"
	"strings"
	"testing"
)

// TestTerminalSecretsScrubbed: the shapes of secrets a terminal shows
// never reach the attachment, while ordinary output stays as it was.
func TestTerminalSecretsScrubbed(t *testing.T) {
	secrets := []string{
		"sk-abcdefghijklmnopqrstuvwxyz123456",
		"ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"AKIAABCDEFGHIJKLMNOP",
		"hunter2hunter2",
		"s3cr3tpass",
		"eyJhbGciOiJIUzI1NiJ9.payload.sig",
		"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
	}
	out := strings.Join([]string{
		"$ export OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz123456",
		"$ echo $GH",
		"ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"AWS id AKIAABCDEFGHIJKLMNOP",
		`DB_PASSWORD="hunter2hunter2" make test`,
		"git clone https://bob:s3cr3tpass@example.com/r.git",
		"curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig' x",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----",
		"ok  	example.com/pkg	0.012s",
	}, "\n")
	_, env := workspace(t)
	a := Expand(context.Background(), env, "@terminal", Sources{Terminal: func(context.Context) (string, error) { return out, nil }})[0]
	for _, s := range secrets {
		if strings.Contains(a.Content, s) {
			t.Errorf("secret %q reached the attachment:\n%s", s, a.Content)
		}
	}
	for _, keep := range []string{"ok  	example.com/pkg	0.012s", "OPENAI_API_KEY=[REDACTED]", "https://bob:[REDACTED]@example.com/r.git", "$ echo $GH"} {
		if !strings.Contains(a.Content, keep) {
			t.Errorf("lost %q:\n%s", keep, a.Content)
		}
	}
	if a := Expand(context.Background(), env, "@terminal", Sources{Terminal: func(context.Context) (string, error) { return "", nil }})[0]; a.Error == "" {
		t.Errorf("an empty terminal must say so: %+v", a)
	}
}
