package subagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Report is the investigator's validated result.
type Report struct {
	SummaryOfFindings string     `json:"SummaryOfFindings"`
	ExplorationTrace  []string   `json:"ExplorationTrace"`
	RelevantLocations []Location `json:"RelevantLocations"`
}

// Location is one place in the code that matters to the objective.
type Location struct {
	FilePath   string   `json:"FilePath"`
	Reasoning  string   `json:"Reasoning"`
	KeySymbols []string `json:"KeySymbols"`
}

// ParseReport validates a report given as a JSON object or as a string
// holding one. Every field is required; unknown fields are refused so a
// misspelt key is corrected rather than silently lost.
func ParseReport(raw json.RawMessage) (Report, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return Report{}, errors.New("report is required")
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return Report{}, fmt.Errorf("report: %v", err)
		}
		raw = json.RawMessage(strings.TrimSpace(stripFence(s)))
	}
	var w struct {
		SummaryOfFindings *string   `json:"SummaryOfFindings"`
		ExplorationTrace  *[]string `json:"ExplorationTrace"`
		RelevantLocations *[]struct {
			FilePath   *string   `json:"FilePath"`
			Reasoning  *string   `json:"Reasoning"`
			KeySymbols *[]string `json:"KeySymbols"`
		} `json:"RelevantLocations"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Report{}, fmt.Errorf("report is not a valid JSON object of the required shape: %v", err)
	}
	var problems []string
	var r Report
	if w.SummaryOfFindings == nil || strings.TrimSpace(*w.SummaryOfFindings) == "" {
		problems = append(problems, "SummaryOfFindings must be a non-empty string")
	} else {
		r.SummaryOfFindings = strings.TrimSpace(*w.SummaryOfFindings)
	}
	if w.ExplorationTrace == nil {
		problems = append(problems, "ExplorationTrace must be an array of strings")
	} else {
		r.ExplorationTrace = *w.ExplorationTrace
	}
	if w.RelevantLocations == nil {
		problems = append(problems, "RelevantLocations must be an array of {FilePath, Reasoning, KeySymbols}")
	} else {
		r.RelevantLocations = []Location{}
		for i, l := range *w.RelevantLocations {
			var loc Location
			if l.FilePath == nil || strings.TrimSpace(*l.FilePath) == "" {
				problems = append(problems, fmt.Sprintf("RelevantLocations[%d].FilePath must be a non-empty string", i))
			} else {
				loc.FilePath = *l.FilePath
			}
			if l.Reasoning == nil || strings.TrimSpace(*l.Reasoning) == "" {
				problems = append(problems, fmt.Sprintf("RelevantLocations[%d].Reasoning must be a non-empty string", i))
			} else {
				loc.Reasoning = *l.Reasoning
			}
			if l.KeySymbols == nil {
				problems = append(problems, fmt.Sprintf("RelevantLocations[%d].KeySymbols must be an array of strings", i))
			} else {
				loc.KeySymbols = *l.KeySymbols
			}
			r.RelevantLocations = append(r.RelevantLocations, loc)
		}
	}
	if len(problems) > 0 {
		return Report{}, errors.New(strings.Join(problems, "; "))
	}
	return r, nil
}

// stripFence removes a ```json fence a model may wrap the report in.
func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") {
		return s
	}
	t = strings.TrimPrefix(t, "```")
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[i+1:]
	}
	return strings.TrimSuffix(strings.TrimSpace(t), "```")
}

// JSON renders the report as the calling agent receives it.
func (r Report) JSON() string {
	b, _ := json.MarshalIndent(r, "", "  ")
	return string(b)
}
