package repocheck

import (
	"path/filepath"
	"testing"

	"github.com/govibe/govibe/server/internal/test/goimports"
)

// The event vocabulary the engine shares with the wire, protocol/kinds and
// protocol/eventdata, stays leaves: importing either must not bring the
// wire contract (or any other package) into the engine. eventdata may name
// kinds, nothing else.
func TestProtocolVocabularyIsLeaves(t *testing.T) {
	for _, dir := range []string{"kinds", "eventdata"} {
		ims, err := goimports.Of(filepath.Join(repoRoot(t), "protocol", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range ims {
			if im.Path != goimports.Module+"protocol/kinds" {
				t.Errorf("protocol/%s/%s imports %s: the engine imports this package, so it must stay a leaf", dir, im.File, im.Path)
			}
		}
	}
}
