package scheduler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// CreateArgs are create_todo_list's arguments.
type CreateArgs struct {
	Goal  string
	Items []Item
	// ExpandIndex (1-based, 0 when absent) replaces that item with Items.
	ExpandIndex int
}

// CompleteArgs are complete_todo_item's arguments.
type CompleteArgs struct {
	Index   int    `json:"index"`
	Title   string `json:"title"`
	Summary string `json:"summary"`
}

// MaxItems bounds a plan so a runaway model cannot schedule forever.
const MaxItems = 50

// ParseCreate decodes create_todo_list's JSON arguments. Each item is an
// object {title, description, acceptance} or a bare string (its title).
func ParseCreate(raw json.RawMessage) (CreateArgs, error) {
	var w struct {
		Goal        *string           `json:"goal"`
		Items       []json.RawMessage `json:"items"`
		ExpandIndex *int              `json:"expandIndex"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return CreateArgs{}, fmt.Errorf("invalid arguments: %v", err)
	}
	var a CreateArgs
	if w.Goal == nil || strings.TrimSpace(*w.Goal) == "" {
		return a, errors.New("goal is required: one sentence saying what the whole plan achieves")
	}
	a.Goal = strings.TrimSpace(*w.Goal)
	if len(w.Items) == 0 {
		return a, errors.New("items is required and must not be empty")
	}
	if len(w.Items) > MaxItems {
		return a, fmt.Errorf("too many items (%d); a plan holds at most %d", len(w.Items), MaxItems)
	}
	for i, r := range w.Items {
		it, err := parseItem(r)
		if err != nil {
			return a, fmt.Errorf("items[%d]: %v", i, err)
		}
		a.Items = append(a.Items, it)
	}
	if w.ExpandIndex != nil {
		if *w.ExpandIndex < 1 {
			return a, fmt.Errorf("expandIndex %d: indexes are 1-based", *w.ExpandIndex)
		}
		a.ExpandIndex = *w.ExpandIndex
	}
	return a, nil
}

func parseItem(r json.RawMessage) (Item, error) {
	r = bytes.TrimSpace(r)
	if len(r) > 0 && r[0] == '"' {
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return Item{}, err
		}
		if strings.TrimSpace(s) == "" {
			return Item{}, errors.New("an item's title must not be empty")
		}
		return Item{Title: strings.TrimSpace(s), Status: Pending}, nil
	}
	var o struct {
		Title       *string `json:"title"`
		Description string  `json:"description"`
		Acceptance  string  `json:"acceptance"`
	}
	dec := json.NewDecoder(bytes.NewReader(r))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return Item{}, fmt.Errorf("want a string or {title, description, acceptance}: %v", err)
	}
	if o.Title == nil || strings.TrimSpace(*o.Title) == "" {
		return Item{}, errors.New("title is required")
	}
	return Item{Title: strings.TrimSpace(*o.Title), Description: strings.TrimSpace(o.Description),
		Acceptance: strings.TrimSpace(o.Acceptance), Status: Pending}, nil
}

// ParseComplete decodes complete_todo_item's arguments.
func ParseComplete(raw json.RawMessage) (CompleteArgs, error) {
	var a CompleteArgs
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("invalid arguments: %v", err)
	}
	if a.Index == 0 && strings.TrimSpace(a.Title) == "" {
		return a, errors.New("give the item's index (1-based) or its title")
	}
	return a, nil
}

// CreateSchema and CompleteSchema are the tools' JSON schemas.
var (
	CreateSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"goal":{"type":"string","description":"What the whole plan achieves, in one sentence."},` +
		`"items":{"type":"array","minItems":1,"description":"The steps, in order.","items":{"anyOf":[{"type":"string"},{"type":"object","properties":{"title":{"type":"string"},"description":{"type":"string"},"acceptance":{"type":"string","description":"How to check the step is done."}},"required":["title"],"additionalProperties":false}]}},` +
		`"expandIndex":{"type":"integer","minimum":1,"description":"1-based index of the item to split into items."}` +
		`},"required":["goal","items"],"additionalProperties":false}`)
	CompleteSchema = json.RawMessage(`{"type":"object","properties":{` +
		`"index":{"type":"integer","minimum":1,"description":"1-based index of the item."},` +
		`"title":{"type":"string","description":"The item's title (alternative to index)."},` +
		`"summary":{"type":"string","description":"What was verified."}` +
		`},"additionalProperties":false}`)
)
