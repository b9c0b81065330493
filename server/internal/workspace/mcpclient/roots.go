package mcpclient

import (
	"net/url"
	"path/filepath"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client offers the workspace folders as its roots (the MCP spec's
// client/roots: roots/list answers them, and the client declares
// roots.listChanged), so a server such as the filesystem server works
// inside the workspace. The go-sdk client answers roots/list from its
// list and sends notifications/roots/list_changed to every connected
// server when the list changes. (The roots feature is deprecated from
// protocol version 2026-07-28 on but still works and servers still ask.)

// SetRoots offers roots (absolute folder paths) as the client's roots,
// replacing the earlier ones; connected servers are notified when the
// list changes.
func (m *Manager) SetRoots(roots []string) {
	var want []*mcp.Root
	var uris []string
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			continue
		}
		u := rootURI(r)
		if slices.Contains(uris, u) {
			continue
		}
		uris = append(uris, u)
		want = append(want, &mcp.Root{URI: u, Name: filepath.Base(r)})
	}
	m.rootsMu.Lock()
	defer m.rootsMu.Unlock()
	var gone []string
	for _, u := range m.roots {
		if !slices.Contains(uris, u) {
			gone = append(gone, u)
		}
	}
	var added []*mcp.Root
	for _, r := range want {
		if !slices.Contains(m.roots, r.URI) {
			added = append(added, r)
		}
	}
	m.roots = uris
	if len(gone) > 0 {
		m.client.RemoveRoots(gone...) //nolint:staticcheck // deprecated in the spec, still the way to offer roots
	}
	if len(added) > 0 {
		m.client.AddRoots(added...) //nolint:staticcheck // as above
	}
}

// rootURI is a folder's file:// URI (forward slashes, a leading slash on
// Windows drive paths, reserved characters escaped).
func rootURI(dir string) string {
	p := filepath.ToSlash(dir)
	if len(p) > 0 && p[0] != '/' {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
