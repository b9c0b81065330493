package server

import (
	"context"
	"path/filepath"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/workspace/filecomplete"
)

// fileIndex keeps the listings of workspaces too large to walk within the
// autocomplete's budget (every server of the process shares them).
var fileIndex = filecomplete.NewIndex()

// FilesComplete answers the @-mention autocomplete.
func (s *Server) FilesComplete(ctx context.Context, p *protocol.FilesCompleteParams) (*protocol.FilesCompleteResult, error) {
	eng, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	roots := eng.Roots()
	ms, partial := fileIndex.Complete(roots, p.Query, filecomplete.Options{Limit: p.Limit})
	out := &protocol.FilesCompleteResult{Items: []protocol.FileCompletion{}, Partial: partial}
	for _, m := range ms {
		it := protocol.FileCompletion{Path: m.Path}
		if len(roots) > 1 {
			it.Root = filepath.Base(m.Root)
		}
		out.Items = append(out.Items, it)
	}
	return out, nil
}
