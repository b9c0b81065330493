package sessionstate

import (
	"testing"

	"github.com/govibe/govibe/server/internal/test/goimports"
)

// TestIsALeaf keeps this package below every capability: the keys of a
// capability's own state live in that capability's package, so nothing
// here may import another internal package (it once imported modes,
// review and scheduler for their value types).
func TestIsALeaf(t *testing.T) {
	ims, err := goimports.Internal(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range ims {
		t.Errorf("%s imports %s: declare that capability's key in its own package with NewKey", im.File, im.Path)
	}
}

func TestNewKeyRefusesATakenName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("declaring \"turns\" a second time did not panic: two owners would overwrite each other's state")
		}
	}()
	_ = NewKey[int]("turns")
}

func TestNewKeyRefusesATakenLegacyName(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a key whose legacy name is another key's name did not panic")
		}
	}()
	_ = NewKey[bool]("some_new_name_for_the_test", "editEnabled")
}
