package gen

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/govibe/govibe/protocol"
)

func typeName(v any) string { return reflect.TypeOf(v).Elem().Name() }

func renderGo(methods []protocol.Method) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString(`
package protocol

import (
	"context"
	"encoding/json"
)

`)
	sig := func(m protocol.Method) string {
		s := m.GoName + "(ctx context.Context"
		if m.Params != nil {
			s += ", params *" + typeName(m.Params)
		}
		s += ")"
		if m.Notify {
			return s + " error"
		}
		return s + " (*" + typeName(m.Result) + ", error)"
	}
	b.WriteString("// Server is implemented by the sidecar: one method per client→server method.\ntype Server interface {\n")
	for _, m := range methods {
		if m.Dir == protocol.ClientToServer {
			if m.Doc != "" {
				fmt.Fprintf(&b, "\t// %s\n", m.Doc)
			}
			fmt.Fprintf(&b, "\t%s\n", sig(m))
		}
	}
	b.WriteString("}\n\n// Client is the sidecar's typed view of the editor: one method per server→client method.\ntype Client interface {\n")
	for _, m := range methods {
		if m.Dir == protocol.ServerToClient {
			fmt.Fprintf(&b, "\t%s\n", sig(m))
		}
	}
	b.WriteString("}\n\n")

	b.WriteString(`// Dispatch decodes params and calls the matching Server method. It returns
// an *Error with CodeMethodNotFound for unknown methods and
// CodeInvalidParams for undecodable params.
func Dispatch(ctx context.Context, s Server, method string, raw json.RawMessage) (any, error) {
	switch method {
`)
	for _, m := range methods {
		if m.Dir != protocol.ClientToServer {
			continue
		}
		fmt.Fprintf(&b, "\tcase %q:\n", m.Name)
		args := "ctx"
		if m.Params != nil {
			fmt.Fprintf(&b, "\t\tvar p %s\n\t\tif err := decodeParams(raw, &p); err != nil {\n\t\t\treturn nil, err\n\t\t}\n", typeName(m.Params))
			args += ", &p"
		}
		if m.Notify {
			fmt.Fprintf(&b, "\t\treturn nil, s.%s(%s)\n", m.GoName, args)
		} else {
			fmt.Fprintf(&b, "\t\treturn s.%s(%s)\n", m.GoName, args)
		}
	}
	b.WriteString("\t}\n\treturn nil, Errorf(CodeMethodNotFound, \"method not found: %s\", method)\n}\n\n")

	b.WriteString("// methodInfo records, per client→server method, whether it is a notification\n// and whether it must be handled in arrival order.\nvar methodInfo = map[string]struct{ notify, ordered bool }{\n")
	for _, m := range methods {
		if m.Dir == protocol.ClientToServer {
			fmt.Fprintf(&b, "\t%q: {%v, %v},\n", m.Name, m.Notify, m.Ordered || m.Notify)
		}
	}
	b.WriteString("}\n\n")

	b.WriteString("// NewClient returns a Client that sends through c.\nfunc NewClient(c Caller) Client { return client{c} }\n\ntype client struct{ c Caller }\n\n")
	for _, m := range methods {
		if m.Dir != protocol.ServerToClient {
			continue
		}
		fmt.Fprintf(&b, "func (x client) %s {\n", sig(m))
		p := "nil"
		if m.Params != nil {
			p = "params"
		}
		if m.Notify {
			fmt.Fprintf(&b, "\treturn x.c.Notify(ctx, %q, %s)\n}\n\n", m.Name, p)
		} else {
			fmt.Fprintf(&b, "\tvar r %s\n\tif err := x.c.Call(ctx, %q, %s, &r); err != nil {\n\t\treturn nil, err\n\t}\n\treturn &r, nil\n}\n\n", typeName(m.Result), m.Name, p)
		}
	}
	return gofmt(&b)
}
