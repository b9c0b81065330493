package logging

import (
	"fmt"
	"strings"

	"go.uber.org/zap/zapcore"
)

// maxField bounds a log message and each string, byte-string, error or
// stringer field. Anything a peer or the model sends can reach a log entry
// (a method name, a search query, a panic value); a 32 MB query once wrote
// a 67 MB log line. Stack traces are ours and keep up to maxStack.
const (
	maxField = 4096
	maxStack = 64 << 10
)

// boundedCore cuts oversized text before it is encoded, so the cost of a
// huge value is never paid by the encoder, the redactor or the disk.
type boundedCore struct{ zapcore.Core }

func (c boundedCore) With(fields []zapcore.Field) zapcore.Core {
	return boundedCore{c.Core.With(boundFields(fields))}
}

func (c boundedCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c boundedCore) Write(e zapcore.Entry, fields []zapcore.Field) error {
	e.Message = cut(e.Message, maxField)
	e.Stack = cut(e.Stack, maxStack)
	return c.Core.Write(e, boundFields(fields))
}

func boundFields(fields []zapcore.Field) []zapcore.Field {
	var out []zapcore.Field
	for i, f := range fields {
		g, changed := boundField(f)
		if changed && out == nil {
			out = append(make([]zapcore.Field, 0, len(fields)), fields[:i]...)
		}
		if out != nil {
			out = append(out, g)
		}
	}
	if out == nil {
		return fields
	}
	return out
}

func boundField(f zapcore.Field) (zapcore.Field, bool) {
	limit := maxField
	if f.Key == "stack" {
		limit = maxStack
	}
	var s string
	switch f.Type {
	case zapcore.StringType:
		if len(f.String) <= limit {
			return f, false
		}
		s = f.String
	case zapcore.ByteStringType:
		b, _ := f.Interface.([]byte)
		if len(b) <= limit {
			return f, false
		}
		s = string(b[:limit+1])
	case zapcore.ErrorType:
		err, _ := f.Interface.(error)
		if err == nil {
			return f, false
		}
		s = err.Error()
		if len(s) <= limit {
			return f, false
		}
	case zapcore.StringerType, zapcore.ReflectType:
		// A panic value or a model-supplied structure: render it and cut.
		s = fmt.Sprint(f.Interface)
		if len(s) <= limit {
			return f, false
		}
	default:
		return f, false
	}
	return zapcore.Field{Key: f.Key, Type: zapcore.StringType, String: cut(s, limit)}, true
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + fmt.Sprintf("… [%d more bytes cut]", len(s)-n)
}
