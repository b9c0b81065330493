package modes

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Manifest is the Vibe Manifest (VibeOS): the desired state that the
// reconcile loop drives the workspace towards. It is saved to
// .govibe/manifests/<name>.json for the user to edit and approve. Its
// fields are the seed's, under the seed's names (manifest_fields.go reads
// the earlier shapes too); GoVibe adds metadata.approved and the commands
// the auditor runs.
type Manifest struct {
	// APIVersion and Kind are not the seed's: read when present (manifests
	// drafted before), never asked for.
	APIVersion string         `json:"apiVersion,omitempty"`
	Kind       string         `json:"kind,omitempty"`
	Metadata   Metadata       `json:"metadata"`
	Spec       ManifestSpec   `json:"spec"`
	Status     ManifestStatus `json:"status"`
}

type Metadata struct {
	Name     string `json:"name"`
	Version  string `json:"version,omitempty"`
	Approved bool   `json:"approved"`
}

type ManifestSpec struct {
	Intent         string         `json:"intent"`
	Constraints    Constraints    `json:"constraints"`
	VisualSpec     *VisualSpec    `json:"visualSpec,omitempty"`
	FunctionalSpec FunctionalSpec `json:"functionalSpec"`
	// TestCommand is what the auditor runs; its output is parsed for Diff.
	TestCommand string `json:"testCommand"`
	// E2ECommand, when set, also runs; its failures add to Diff.
	E2ECommand string `json:"e2eCommand,omitempty"`
}

type Constraints struct {
	Framework string     `json:"framework,omitempty"`
	Language  string     `json:"language,omitempty"`
	Testing   StringList `json:"testing,omitempty"` // test frameworks
}

// ManifestStatus is written back as the loop runs.
type ManifestStatus struct {
	Phase       string `json:"phase"` // Pending|Reconciling|Ready|Failed
	CurrentLoop int    `json:"currentLoop"`
	LastError   string `json:"lastError,omitempty"`
	Diff        int    `json:"diff"`
}

var nameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// Validate reports what keeps a manifest from running.
func (m Manifest) Validate() error {
	var probs []string
	if !nameRe.MatchString(m.Metadata.Name) {
		probs = append(probs, fmt.Sprintf("metadata.name %q must be lower-case letters, digits and dashes", m.Metadata.Name))
	}
	if strings.TrimSpace(m.Spec.Intent) == "" {
		probs = append(probs, "spec.intent is empty")
	}
	if strings.TrimSpace(m.Spec.TestCommand) == "" {
		probs = append(probs, "spec.testCommand is empty: the auditor needs a command to run")
	}
	if len(probs) > 0 {
		return fmt.Errorf("invalid manifest: %s", strings.Join(probs, "; "))
	}
	return nil
}

// ParseManifest decodes and validates a manifest file.
func ParseManifest(b []byte) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("manifest is not valid JSON: %w", err)
	}
	return m, m.Validate()
}

// ManifestPath is where a manifest named name lives in the workspace.
func ManifestPath(name string) string { return ".govibe/manifests/" + name + ".json" }

// EncodeManifest is the manifest as its file holds it (indented JSON).
func EncodeManifest(m Manifest) ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
