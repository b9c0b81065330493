package gen

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
)

// writeKinds emits the chat event kinds: one constant each (EventTurnStarted),
// the union EventKind that ChatEvent.kind is typed by, and the list of all.
func writeKinds(b *bytes.Buffer) {
	var names, alts []string
	for _, k := range kinds.All {
		name := "Event" + strings.ToUpper(string(k[:1])) + string(k[1:])
		fmt.Fprintf(b, "export const %s = %q;\n", name, string(k))
		names = append(names, name)
		alts = append(alts, fmt.Sprintf("%q", string(k)))
	}
	fmt.Fprintf(b, "\n/** What a chat/event carries. */\nexport type EventKind = %s;\n\n", strings.Join(alts, " | "))
	fmt.Fprintf(b, "/** Every EventKind, in declaration order. */\nexport const EVENT_KINDS: readonly EventKind[] = [%s];\n\n", strings.Join(names, ", "))
}

// renderTS emits interfaces for every struct reachable from the methods,
// the shared constants, and method maps that the extension's typed client
// is built on.
func renderTS(methods []protocol.Method, consts []constant) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("/* eslint-disable */\n\n")

	seen := map[reflect.Type]bool{}
	var order []reflect.Type
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		order = append(order, t)
		for _, f := range fieldsOf(t) {
			visit(f.Type)
		}
	}
	for _, m := range methods {
		for _, v := range []any{m.Params, m.Result} {
			if v != nil {
				visit(reflect.TypeOf(v))
			}
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Name() < order[j].Name() })

	for _, c := range consts {
		fmt.Fprintf(&b, "export const %s = %s;\n", c.name, c.value)
	}
	b.WriteString("\n")
	writeKinds(&b)
	for _, t := range order {
		fmt.Fprintf(&b, "export interface %s {\n", t.Name())
		for _, f := range fieldsOf(t) {
			tag := f.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			opt := ""
			if strings.Contains(opts, "omitempty") || f.Type.Kind() == reflect.Pointer {
				opt = "?"
			}
			fmt.Fprintf(&b, "\t%s%s: %s;\n", name, opt, tsType(f.Type))
		}
		b.WriteString("}\n\n")
	}

	writeMap := func(title string, dir protocol.Direction, notify bool) {
		fmt.Fprintf(&b, "export interface %s {\n", title)
		for _, m := range methods {
			if m.Dir != dir || m.Notify != notify {
				continue
			}
			p, r := "void", "void"
			if m.Params != nil {
				p = typeName(m.Params)
			}
			if m.Result != nil {
				r = typeName(m.Result)
			}
			if notify {
				fmt.Fprintf(&b, "\t%q: %s;\n", m.Name, p)
			} else {
				fmt.Fprintf(&b, "\t%q: { params: %s; result: %s };\n", m.Name, p, r)
			}
		}
		b.WriteString("}\n\n")
	}
	writeMap("ClientRequests", protocol.ClientToServer, false)
	writeMap("ClientNotifications", protocol.ClientToServer, true)
	writeMap("ServerRequests", protocol.ServerToClient, false)
	writeMap("ServerNotifications", protocol.ServerToClient, true)

	b.WriteString("export const Method = {\n")
	for _, m := range methods {
		fmt.Fprintf(&b, "\t%s: %q,\n", m.GoName, m.Name)
	}
	b.WriteString("} as const;\n")
	return b.Bytes(), nil
}

// fieldsOf lists t's fields as JSON sees them: an embedded struct's
// fields (ChatEvent's Payloads) in its place.
func fieldsOf(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type == reflect.TypeOf(protocol.Payloads{}) {
			// From eventdata.All, not from the compiled Payloads: that is
			// the previous run's output, so one run of the generator
			// brings both files up to date.
			out = append(out, payloadStructFields()...)
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			out = append(out, fieldsOf(f.Type)...)
			continue
		}
		out = append(out, f)
	}
	return out
}

func tsType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return tsType(t.Elem())
	case reflect.String:
		if t == reflect.TypeOf(kinds.Kind("")) {
			return "EventKind"
		}
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Float64, reflect.Float32, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "number"
	case reflect.Slice:
		return tsType(t.Elem()) + "[]"
	case reflect.Map:
		return "Record<" + tsType(t.Key()) + ", " + tsType(t.Elem()) + ">"
	case reflect.Interface:
		return "unknown"
	case reflect.Struct:
		return t.Name()
	}
	return "unknown"
}
