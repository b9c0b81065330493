package store

import (
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrations returns the embedded scripts in order. Script i (0-based)
// brings the schema from user_version i to i+1; scripts are append-only.
func migrations() ([]string, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		b, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

// SchemaVersion is the schema version this binary writes.
func SchemaVersion() int {
	m, _ := migrations()
	return len(m)
}

// migrate applies the missing scripts and bumps user_version in a single
// transaction, so a crash mid-migration leaves the previous version intact.
func migrate(db *sql.DB, path string) error {
	scripts, err := migrations()
	if err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	// Read inside the write transaction: another process may have migrated
	// between our open and our lock.
	if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(scripts) {
		return &VersionError{Path: path, FileVersion: v, KnownVersions: len(scripts)}
	}
	if v == len(scripts) {
		return nil
	}
	for i := v; i < len(scripts); i++ {
		if _, err := tx.Exec(scripts[i]); err != nil {
			return fmt.Errorf("migration %d: %w", i+1, err)
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(scripts))); err != nil {
		return err
	}
	return tx.Commit()
}
