package gen

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/govibe/govibe/protocol/eventdata"
)

// PayloadsFile holds protocol.Payloads, relative to the protocol package.
const PayloadsFile = "payloads_gen.go"

// payloadField is the Go field of chat/event that carries p: its JSON name
// with the first letter upper-cased. A struct payload is a pointer (absent
// when nil); a slice payload is the slice (absent when empty).
type payloadField struct {
	goName, json, goType, typeName string
	slice                          bool
	t                              reflect.Type
}

// payloadStructFields are Payloads' fields as reflection would list them
// once payloads_gen.go is current, for the TypeScript.
func payloadStructFields() []reflect.StructField {
	var out []reflect.StructField
	for _, f := range payloadFields() {
		t := f.t
		if !f.slice {
			t = reflect.PointerTo(t)
		}
		out = append(out, reflect.StructField{Name: f.goName, Type: t, Tag: reflect.StructTag(`json:"` + f.json + `,omitempty"`)})
	}
	return out
}

func payloadFields() []payloadField {
	var out []payloadField
	for _, p := range eventdata.All {
		t := reflect.TypeOf(p)
		f := payloadField{goName: strings.ToUpper(p.Field()[:1]) + p.Field()[1:], json: p.Field(), typeName: "eventdata." + t.Name(),
			slice: t.Kind() == reflect.Slice, t: t}
		f.goType = f.typeName
		if !f.slice {
			f.goType = "*" + f.typeName
		}
		out = append(out, f)
	}
	return out
}

// renderPayloads emits protocol.Payloads, chat/event's optional payload
// fields, and Put, which files an eventdata.Payload under its field: both
// derived from eventdata.All, so a payload type is declared only there.
func renderPayloads() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\npackage protocol\n\nimport \"github.com/govibe/govibe/protocol/eventdata\"\n\n")
	b.WriteString("// Payloads is a chat/event's kind-specific data: one optional field per\n// eventdata payload type, at most one of them set.\ntype Payloads struct {\n")
	fields := payloadFields()
	for _, f := range fields {
		fmt.Fprintf(&b, "\t%s %s `json:\"%s,omitempty\"`\n", f.goName, f.goType, f.json)
	}
	b.WriteString("}\n\n// Put files p under its field; a nil p leaves w as it is.\nfunc (w *Payloads) Put(p eventdata.Payload) {\n\tswitch p := p.(type) {\n")
	for _, f := range fields {
		if f.slice {
			fmt.Fprintf(&b, "\tcase %s:\n\t\tw.%s = p\n", f.typeName, f.goName)
		} else {
			fmt.Fprintf(&b, "\tcase %s:\n\t\tw.%s = &p\n", f.typeName, f.goName)
		}
	}
	b.WriteString("\t}\n}\n")
	return gofmt(&b)
}
