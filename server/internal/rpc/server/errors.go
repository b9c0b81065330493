package server

import (
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/storage/store"
)

// notFound maps store lookups to protocol errors, keeping their message.
func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return protocol.Errorf(protocol.CodeNotFound, "%s", err.Error())
	}
	return err
}
