package logging

import (
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"gopkg.in/natefinch/lumberjack.v2"
)

// Options configure New.
type Options struct {
	Level string // debug|info|warn|error; default info
	// Dir, when set, receives govibe.log rotated at 10 MB, 3 backups.
	Dir string
	// Stderr defaults to os.Stderr; never stdout, which carries protocol bytes.
	Stderr zapcore.WriteSyncer
}

// Logger bundles the logger with its level and redactor so both can be
// changed live from settings.
type Logger struct {
	*zap.Logger
	Level    zap.AtomicLevel
	Redactor *Redactor
}

// New builds a Logger.
func New(o Options) *Logger {
	lvl := zap.NewAtomicLevelAt(ParseLevel(o.Level))
	red := NewRedactor()
	enc := zapcore.NewConsoleEncoder(zapcore.EncoderConfig{
		TimeKey: "t", LevelKey: "level", NameKey: "logger", MessageKey: "msg", StacktraceKey: "stack",
		EncodeTime: zapcore.ISO8601TimeEncoder, EncodeLevel: zapcore.CapitalLevelEncoder,
		EncodeDuration: zapcore.StringDurationEncoder, LineEnding: "\n",
	})
	stderr := o.Stderr
	if stderr == nil {
		stderr = zapcore.Lock(os.Stderr)
	}
	sinks := []zapcore.WriteSyncer{stderr}
	if o.Dir != "" {
		if err := os.MkdirAll(o.Dir, 0o700); err == nil {
			sinks = append(sinks, zapcore.AddSync(&lumberjack.Logger{
				Filename: filepath.Join(o.Dir, "govibe.log"), MaxSize: 10, MaxBackups: 3,
			}))
		}
	}
	core := zapcore.NewCore(enc, &redactingSyncer{zapcore.NewMultiWriteSyncer(sinks...), red}, lvl)
	return &Logger{Logger: zap.New(boundedCore{core}), Level: lvl, Redactor: red}
}

// ParseLevel maps a setting to a zap level; unknown values mean info.
func ParseLevel(s string) zapcore.Level {
	var l zapcore.Level
	if err := l.UnmarshalText([]byte(strings.ToLower(strings.TrimSpace(s)))); err != nil {
		return zapcore.InfoLevel
	}
	return l
}

// redactingSyncer scrubs encoded entries just before they are written, so
// a secret that slips into any field, message or error is still removed.
type redactingSyncer struct {
	zapcore.WriteSyncer
	r *Redactor
}

func (s *redactingSyncer) Write(p []byte) (int, error) {
	out := s.r.Redact(p)
	if _, err := s.WriteSyncer.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
