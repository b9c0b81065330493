package gen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/govibe/govibe/server/internal/host/config"
)

// group is one struct of the typed accessors: the root or a dotted prefix.
type group struct {
	path   string // "" for the root, else "autoApprove", "permissions.workspace"
	fields []field
}

type field struct {
	name, typ, doc string
	key            string // setting key, or "" for a nested group
	accessor       string
}

func goName(seg string) string {
	n := strings.ToUpper(seg[:1]) + seg[1:]
	if strings.HasPrefix(n, "Api") {
		n = "API" + n[3:]
	}
	return strings.Replace(n, "Url", "URL", 1)
}

func typeName(path string) string {
	if path == "" {
		return "Settings"
	}
	var b strings.Builder
	for _, seg := range strings.Split(path, ".") {
		b.WriteString(goName(seg))
	}
	return b.String() + "Settings"
}

func goType(s config.Setting) (typ, accessor string) {
	switch s.Type {
	case "boolean":
		return "bool", "Bool"
	case "integer":
		return "int", "Int"
	case "number":
		return "float64", "Float"
	case "object":
		return "map[string]any", "Object"
	case "array":
		if s.Items == "model" {
			return "[]map[string]any", "Objects"
		}
		return "[]string", "Strings"
	}
	return "string", "String"
}

func renderGo() ([]byte, error) {
	groups := map[string]*group{"": {}}
	order := []string{""}
	var ensure func(path string) *group
	ensure = func(path string) *group {
		if g, ok := groups[path]; ok {
			return g
		}
		g := &group{path: path}
		groups[path] = g
		order = append(order, path)
		parent, last := "", path
		if i := strings.LastIndexByte(path, '.'); i >= 0 {
			parent, last = path[:i], path[i+1:]
		}
		p := ensure(parent)
		p.fields = append(p.fields, field{name: goName(last), typ: typeName(path)})
		return g
	}
	for _, s := range config.Schema {
		parent, last := "", s.Key
		if i := strings.LastIndexByte(s.Key, '.'); i >= 0 {
			parent, last = s.Key[:i], s.Key[i+1:]
		}
		g := ensure(parent)
		typ, acc := goType(s)
		doc := s.EN
		if s.Unit != "" && !strings.Contains(strings.ToLower(doc), "millisecond") {
			doc += " Unit: " + s.Unit + "."
		}
		g.fields = append(g.fields, field{name: goName(last), typ: typ, doc: doc, key: s.Key, accessor: acc})
	}

	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("\npackage config\n\n")
	for _, path := range order {
		g := groups[path]
		if path == "" {
			b.WriteString("// Settings is the typed view of Values: one field per key of Schema.\n")
		} else {
			fmt.Fprintf(&b, "// %s holds the %s.* settings.\n", typeName(path), path)
		}
		fmt.Fprintf(&b, "type %s struct {\n", typeName(path))
		for _, f := range g.fields {
			if f.doc != "" {
				fmt.Fprintf(&b, "\t// %s (%s)\n", f.doc, f.key)
			}
			fmt.Fprintf(&b, "\t%s %s\n", f.name, f.typ)
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("// Typed reads every setting of v, defaults filled in.\nfunc Typed(v Values) Settings {\n\tvar s Settings\n")
	for _, st := range config.Schema {
		_, acc := goType(st)
		var sel []string
		for _, seg := range strings.Split(st.Key, ".") {
			sel = append(sel, goName(seg))
		}
		fmt.Fprintf(&b, "\ts.%s = v.%s(%q)\n", strings.Join(sel, "."), acc, st.Key)
	}
	b.WriteString("\treturn s\n}\n")
	renderModelProfile(&b)
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt settings_gen.go: %w\n%s", err, b.String())
	}
	return out, nil
}

// renderModelProfile writes the typed view of one govibe.models entry
// (ModelFields) and its reader.
func renderModelProfile(b *bytes.Buffer) {
	b.WriteString("\n// ModelProfile is the typed view of one govibe.models entry: one field per\n" +
		"// ModelFields entry. An absent field reads as Values does: the default of\n" +
		"// the top-level setting of the same name (model, contextWindow,\n" +
		"// maxOutputTokens, toolCalling), else empty; an absent Optional one is nil.\ntype ModelProfile struct {\n")
	for _, f := range config.ModelFields {
		typ, _ := goType(config.Setting{Type: f.Type})
		if f.Optional {
			typ = "*" + typ
		}
		fmt.Fprintf(b, "\t// %s (%s)\n\t%s %s\n", f.EN, f.Name, goName(f.Name), typ)
	}
	b.WriteString("}\n\n// ModelProfileOf reads one govibe.models entry.\nfunc ModelProfileOf(m map[string]any) ModelProfile {\n\tv := Values(m)\n\tvar p ModelProfile\n")
	for _, f := range config.ModelFields {
		typ, acc := goType(config.Setting{Type: f.Type})
		if f.Optional {
			fmt.Fprintf(b, "\tif x, ok := m[%q].(%s); ok {\n\t\tp.%s = &x\n\t}\n", f.Name, typ, goName(f.Name))
			continue
		}
		fmt.Fprintf(b, "\tp.%s = v.%s(%q)\n", goName(f.Name), acc, f.Name)
	}
	b.WriteString("\treturn p\n}\n\n// ModelProfiles are the govibe.models entries, typed.\nfunc (s Settings) ModelProfiles() []ModelProfile {\n" +
		"\tout := make([]ModelProfile, 0, len(s.Models))\n\tfor _, m := range s.Models {\n\t\tout = append(out, ModelProfileOf(m))\n\t}\n\treturn out\n}\n")
}
