package gen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/host/config"
)

// configuration renders contributes.configuration. Descriptions are nls
// references so that VS Code shows them in the UI language.
func configuration() obj {
	props := obj{}
	for _, s := range config.Schema {
		if s.Internal {
			continue
		}
		p := obj{{"type", s.Type}, {"default", s.Default}}
		desc := "description"
		if s.Markdown {
			desc = "markdownDescription"
		}
		p = append(p, kv{desc, "%config." + s.Key + "%"})
		if s.VSCodeScope != "" {
			p = append(p, kv{"scope", s.VSCodeScope})
		}
		if len(s.Enum) > 0 {
			p = append(p, kv{"enum", s.Enum})
		}
		if s.Min != nil {
			p = append(p, kv{"minimum", *s.Min})
		}
		if s.Max != nil {
			p = append(p, kv{"maximum", *s.Max})
		}
		for _, k := range sortedKeys(s.ObjectSchema) {
			p = append(p, kv{k, s.ObjectSchema[k]})
		}
		switch s.Items {
		case "string":
			p = append(p, kv{"items", obj{{"type", "string"}}})
		case "model":
			fields := obj{}
			for _, f := range config.ModelFields {
				if f.Internal {
					continue
				}
				fo := obj{{"type", f.Type}}
				if len(f.Enum) > 0 {
					fo = append(fo, kv{"enum", f.Enum})
				}
				if f.Default != nil {
					fo = append(fo, kv{"default", f.Default})
				}
				if f.Min != nil {
					fo = append(fo, kv{"minimum", *f.Min})
				}
				fo = append(fo, kv{"description", "%config.models." + f.Name + "%"})
				fields = append(fields, kv{f.Name, fo})
			}
			p = append(p, kv{"items", obj{{"type", "object"}, {"required", []string{"name"}}, {"properties", fields}}})
		}
		props = append(props, kv{"govibe." + s.Key, p})
	}
	return obj{{"title", "GoVibe"}, {"properties", props}}
}

// splicePackage replaces the value of contributes.configuration in the
// text of package.json and leaves every other byte alone.
func splicePackage(src string) ([]byte, error) {
	const key = `"configuration": `
	i := strings.Index(src, key)
	if i < 0 {
		return nil, fmt.Errorf("package.json: no %s", key)
	}
	start := i + len(key)
	end, err := objectEnd(src, start)
	if err != nil {
		return nil, fmt.Errorf("package.json: %w", err)
	}
	body, err := indent(configuration(), lineIndent(src, i))
	if err != nil {
		return nil, err
	}
	return []byte(src[:start] + body + src[end:]), nil
}

// nlsEntries are the config.* entries of one language.
func nlsEntries(zh bool) obj {
	pick := func(en, z string) string {
		if zh {
			return z
		}
		return en
	}
	out := obj{}
	for _, s := range config.Schema {
		if s.Internal {
			continue
		}
		out = append(out, kv{"config." + s.Key, pick(s.EN, s.ZH)})
		if s.Items == "model" {
			for _, f := range config.ModelFields {
				if f.Internal {
					continue
				}
				out = append(out, kv{"config.models." + f.Name, pick(f.EN, f.ZH)})
			}
		}
	}
	return out
}

// spliceNLS replaces the config.* entries of an nls file, keeping the
// others (commands, views) in place.
func spliceNLS(src string, zh bool) ([]byte, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var before, after obj
	seen := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		k := t.(string)
		switch {
		case strings.HasPrefix(k, "config."):
			seen = true
		case seen:
			after = append(after, kv{k, v})
		default:
			before = append(before, kv{k, v})
		}
	}
	all := append(append(before, nlsEntries(zh)...), after...)
	body, err := indent(all, "")
	if err != nil {
		return nil, err
	}
	return []byte(body + "\n"), nil
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
