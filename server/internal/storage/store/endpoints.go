package store

import (
	"context"
	"database/sql"
	"errors"
)

// EndpointToolCalling returns the tool-call protocol learned for a model
// at an endpoint ("" when nothing was learned).
func (s *Store) EndpointToolCalling(ctx context.Context, baseURL, model string) (string, error) {
	var mode string
	err := s.r.QueryRowContext(ctx, `SELECT tool_calling FROM endpoints WHERE base_url = ? AND model = ?`, baseURL, model).Scan(&mode)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return mode, err
}

// LearnEndpointToolCalling records the protocol a model at an endpoint
// accepts. It reports whether this changed what was known, so that of
// several runs learning the same thing at once exactly one tells the user.
func (s *Store) LearnEndpointToolCalling(ctx context.Context, baseURL, model, mode string) (changed bool, err error) {
	if mode == "" {
		return false, invalidf("empty tool-calling mode")
	}
	err = s.writeTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO endpoints (base_url, model, tool_calling, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (base_url, model) DO UPDATE SET tool_calling = excluded.tool_calling, updated_at = excluded.updated_at
			WHERE tool_calling <> excluded.tool_calling`, baseURL, model, mode, s.nowMS())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		changed = n > 0
		return err
	})
	return changed, err
}
