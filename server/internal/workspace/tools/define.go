package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
)

// callIDKey carries the model's tool-call id through ctx so proposals can
// name the call they belong to.
type callIDKey struct{}

// WithCallID returns ctx carrying the tool-call id; the agent sets it.
func WithCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// CallID returns the tool-call id set by WithCallID, or "".
func CallID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}

// define is the one implementation of Tool: a name, an embedded
// description, an args struct A (whose tags generate the JSON schema) and a
// run function. It is immutable and safe for concurrent use.
type define[A any] struct {
	name   string
	desc   string
	traits Traits
	// defaults returns A pre-filled with the documented defaults; fields
	// absent from the call keep them.
	defaults func() A
	run      func(ctx context.Context, env *Env, a A) (Result, error)

	once     sync.Once
	schema   json.RawMessage
	required []string
}

func (d *define[A]) Name() string        { return d.name }
func (d *define[A]) Description() string { return strings.TrimSpace(d.desc) }
func (d *define[A]) Traits() Traits      { return d.traits }

// ReadOnly follows from the traits: a tool that changes nothing may run
// in parallel.
func (d *define[A]) ReadOnly() bool { return d.traits.ChangesNothing() }

func (d *define[A]) Schema() json.RawMessage {
	d.init()
	return d.schema
}

func (d *define[A]) init() {
	d.once.Do(func() {
		r := &jsonschema.Reflector{
			DoNotReference:             true,
			ExpandedStruct:             true,
			Anonymous:                  true,
			RequiredFromJSONSchemaTags: true,
		}
		var zero A
		s := r.ReflectFromType(reflect.TypeOf(zero))
		s.Version = ""
		d.required = append([]string(nil), s.Required...)
		b, err := json.Marshal(s)
		if err != nil {
			panic(fmt.Sprintf("tool %s: schema: %v", d.name, err))
		}
		d.schema = b
	})
}

func (d *define[A]) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	d.init()
	a := d.defaults()
	watchdog.Doing(ctx, "decoding the arguments")
	if msg, shown := decodeArgs(env, d.name, raw, d.required, &a); msg != "" {
		return FailShown(d.name+": "+msg, shown), nil
	}
	watchdog.Doing(ctx, "running "+d.name)
	return d.run(ctx, env, a)
}

// decodeArgs fills a from raw, reporting missing required fields and type
// mismatches in words the model can act on, and in the person's words for
// the tool card.
func decodeArgs(env *Env, tool string, raw json.RawMessage, required []string, a any) (string, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var present map[string]json.RawMessage
	if err := json.Unmarshal(raw, &present); err != nil {
		return "arguments must be a JSON object: " + err.Error(), env.Tr("%s was called with arguments that are not a JSON object.", tool)
	}
	var missing []string
	for _, r := range required {
		if v, ok := present[r]; !ok || string(v) == "null" {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		list := strings.Join(missing, ", ")
		return "missing required argument(s): " + list, env.Tr("%s was called without the required argument(s): %s.", tool, list)
	}
	if err := json.Unmarshal(raw, a); err != nil {
		var te *json.UnmarshalTypeError
		if ok := asTypeError(err, &te); ok {
			return fmt.Sprintf("argument %q must be %s, got %s", te.Field, jsonKind(te.Type), te.Value),
				env.Tr("%s was called with the argument %s of the wrong type (%s).", tool, te.Field, te.Value)
		}
		return "invalid arguments: " + err.Error(), badArgsShown(env, tool)
	}
	return "", ""
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	}
	return t.String()
}
