package modes

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The manifest's fields whose seed shape differs from what GoVibe wrote
// before: each reads both (so a manifest drafted earlier still loads) and
// writes the seed's.

// StringList is a list of strings that also reads a single string
// (constraints.testing was once one framework).
type StringList []string

func (l *StringList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*l = StringList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("constraints.testing must be a list of strings, got %s", b)
	}
	*l = many
	return nil
}

// VisualSpec is the seed's visual spec: a style and the UI elements that
// must exist. Other keys (a canvas size, a cell size) are details the
// user added; they are kept and written back as they were.
type VisualSpec struct {
	Style    string
	Elements []string
	Details  map[string]json.RawMessage
}

func (v *VisualSpec) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("visualSpec must be an object: %w", err)
	}
	*v = VisualSpec{}
	if s, ok := all["style"]; ok {
		if err := json.Unmarshal(s, &v.Style); err != nil {
			return fmt.Errorf("visualSpec.style must be a string")
		}
		delete(all, "style")
	}
	if e, ok := all["elements"]; ok {
		if err := json.Unmarshal(e, &v.Elements); err != nil {
			return fmt.Errorf("visualSpec.elements must be a list of strings")
		}
		delete(all, "elements")
	}
	if len(all) > 0 {
		v.Details = all
	}
	return nil
}

func (v VisualSpec) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	for k, raw := range v.Details {
		out[k] = raw
	}
	if v.Style != "" {
		out["style"] = v.Style
	}
	if v.Elements != nil {
		out["elements"] = v.Elements
	}
	return json.Marshal(out)
}

// FunctionalSpec is the seed's functional spec. "behaviours" (how GoVibe
// spelled it before) is read as behaviors; a manifest with both is
// ambiguous and refused.
type FunctionalSpec struct {
	Inputs    []string `json:"inputs,omitempty"`
	States    []string `json:"states,omitempty"`
	Behaviors []string `json:"behaviors,omitempty"`
}

func (f *FunctionalSpec) UnmarshalJSON(b []byte) error {
	var aux struct {
		Inputs     []string `json:"inputs"`
		States     []string `json:"states"`
		Behaviors  []string `json:"behaviors"`
		Behaviours []string `json:"behaviours"`
	}
	// The manifest's decoder refuses unknown fields; a custom decoder
	// does not inherit that, so it refuses them itself.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&aux); err != nil {
		return fmt.Errorf("functionalSpec: %w", err)
	}
	if aux.Behaviors != nil && aux.Behaviours != nil {
		return fmt.Errorf("functionalSpec has both behaviors and behaviours: keep behaviors")
	}
	if aux.Behaviors == nil {
		aux.Behaviors = aux.Behaviours
	}
	*f = FunctionalSpec{Inputs: aux.Inputs, States: aux.States, Behaviors: aux.Behaviors}
	return nil
}
