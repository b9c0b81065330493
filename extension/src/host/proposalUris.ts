// The URI schemes of GoVibe's diff sides. Every URI carries ?id=<confirm
// id> (or a view id) so tabs and documents can be matched precisely.
import * as vscode from 'vscode';

export const ORIGINAL_SCHEME = 'govibe-original';
export const PROPOSAL_SCHEME = 'govibe-proposal';
/** Read-only before/after views of edits already applied. */
export const VIEW_SCHEME = 'govibe-view';

export function idOf(uri: vscode.Uri): string | undefined {
  return new URLSearchParams(uri.query).get('id') ?? undefined;
}

export function virtualUri(scheme: string, relPath: string, id: string): vscode.Uri {
  const clean = relPath.replace(/\\/g, '/').replace(/^\/+/, '');
  return vscode.Uri.from({ scheme, path: `/${clean}`, query: `id=${encodeURIComponent(id)}` });
}
