package logging

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

func TestKeysNeverLoggedAtAnyLevel(t *testing.T) {
	var buf bytes.Buffer
	dir := t.TempDir()
	l := New(Options{Level: "debug", Dir: dir, Stderr: zapcore.AddSync(&buf)})
	const key = "sk-live-0123456789abcdefXYZ"
	const other = "ds-secret-key-without-prefix"
	l.Redactor.Set(key, other)
	l.Debug("request", zap.String("Authorization", "Bearer "+key), zap.String("body", `{"api_key":"`+other+`"}`))
	l.Info("calling "+key, zap.Error(errors.New("401 for key "+other)))
	l.Warn("header", zap.String("h", "Authorization: Bearer abc.def.ghi"))
	_ = l.Sync()
	file, err := os.ReadFile(filepath.Join(dir, "govibe.log"))
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"stderr": buf.String(), "file": string(file)} {
		for _, secret := range []string{key, other, "abc.def.ghi"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s log contains secret %q:\n%s", name, secret, out)
			}
		}
		if !strings.Contains(out, "[REDACTED]") {
			t.Errorf("%s log lost the redaction marker:\n%s", name, out)
		}
	}
}

func TestLevelFromSetting(t *testing.T) {
	var buf bytes.Buffer
	l := New(Options{Level: "warn", Stderr: zapcore.AddSync(&buf)})
	l.Info("hidden")
	l.Warn("shown")
	if strings.Contains(buf.String(), "hidden") || !strings.Contains(buf.String(), "shown") {
		t.Fatalf("level not applied: %q", buf.String())
	}
	l.Level.SetLevel(ParseLevel("debug"))
	l.Debug("now visible")
	if !strings.Contains(buf.String(), "now visible") {
		t.Fatal("live level change not applied")
	}
}

// TestHugeValuesAreCut: a megabyte message, field, error or panic value
// is cut to a few KB in the written line.
func TestHugeValuesAreCut(t *testing.T) {
	var buf bytes.Buffer
	l := New(Options{Level: "debug", Stderr: zapcore.AddSync(&buf)})
	huge := strings.Repeat("q", 1<<20)
	l.Info("search "+huge, zap.String("query", huge), zap.ByteString("raw", []byte(huge)),
		zap.Error(errors.New("bad query "+huge)), zap.Any("panic", huge), zap.String("ok", "short"))
	l.With(zap.String("session", huge)).Warn("with")
	_ = l.Sync()
	for i, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if len(line) > 32<<10 {
			t.Fatalf("line %d is %d bytes", i, len(line))
		}
		if !strings.Contains(line, "more bytes cut") {
			t.Fatalf("line %d does not say it was cut: %.200s", i, line)
		}
	}
	if !strings.Contains(buf.String(), "short") {
		t.Fatal("small fields must be kept")
	}
}
