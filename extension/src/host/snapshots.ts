// The Snapshots tree (sessions → turns and other snapshots → changed files)
// and its actions, including the chat's "Roll back to before this turn".
// Which snapshots hold a turn's "before" is the server's answer
// (snapshot/restoreTurn); nothing here reconstructs it. File contents at a
// snapshot come from a govibe-snapshot content provider.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientRequests, FileChange, RootRestore, SessionInfo, SnapshotInfo } from '../protocol.gen';
import { relativeTime, snapshotRows, type SnapshotRow } from '../snapshotRows';

export const SNAPSHOT_SCHEME = 'govibe-snapshot';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

/** Where a file's snapshot content lives: one snapshot of one root. */
interface At {
  id: string;
  root: string;
}

type TurnRow = Extract<SnapshotRow, { kind: 'turn' }>;

type Node =
  | { kind: 'session'; sessionId: string; title: string; rows: SnapshotRow[] }
  | { kind: 'turn'; row: TurnRow }
  | { kind: 'snapshot'; snapshot: SnapshotInfo }
  | { kind: 'file'; at: At; change: FileChange }
  | { kind: 'message'; text: string };

export class SnapshotsView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly tree: vscode.TreeView<Node>;

  constructor(
    private readonly request: Request,
    private readonly currentSession: () => string | undefined,
    private readonly locale: () => string = () => vscode.env.language,
  ) {
    this.tree = vscode.window.createTreeView('govibe.snapshots', { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.tree,
      vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, this),
      this.changed,
    );
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** The pane's title, in govibe.language (VS Code's own is its display language). */
  setTitle(title: string | undefined): void {
    if (title) this.tree.title = title;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'session': {
        const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Collapsed);
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = 'govibe.session';
        return item;
      }
      case 'turn': {
        const r = node.row;
        const item = new vscode.TreeItem(r.message || vscode.l10n.t('(no message)'), vscode.TreeItemCollapsibleState.Collapsed);
        // "Fix the bug · 2 min ago · 1 file": the turn first, then when.
        item.description = [this.ago(r.time), r.files === undefined ? '' : filesLabel(r.files)].filter(Boolean).join(' · ');
        item.tooltip = [r.message, new Date(r.time).toLocaleString(), ...new Set(r.snapshots.map((s) => s.root))].join('\n');
        item.iconPath = new vscode.ThemeIcon('history');
        // Same menus as a snapshot: Compare and Restore apply to the turn.
        item.contextValue = 'govibe.snapshot';
        return item;
      }
      case 'snapshot': {
        const s = node.snapshot;
        const item = new vscode.TreeItem(snapshotTitle(s), vscode.TreeItemCollapsibleState.Collapsed);
        item.description = this.ago(s.time);
        item.tooltip = [new Date(s.time).toLocaleString(), s.root, s.skipped?.length ? vscode.l10n.t('Left out: {0}', s.skipped.join(', ')) : '']
          .filter(Boolean)
          .join('\n');
        item.iconPath = new vscode.ThemeIcon(s.reason === 'before restore' ? 'shield' : 'device-camera');
        item.contextValue = 'govibe.snapshot';
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(path.basename(node.change.path), vscode.TreeItemCollapsibleState.None);
        item.description = `${path.dirname(node.change.path) === '.' ? '' : path.dirname(node.change.path) + ' · '}${kindLabel(node.change.kind)}`;
        item.resourceUri = vscode.Uri.file(absolute(node.at.root, node.change.path));
        item.contextValue = `govibe.snapshotFile.${node.change.kind}`;
        item.command = { command: 'govibe.snapshots.compare', title: vscode.l10n.t('Compare with Current'), arguments: [node] };
        return item;
      }
      case 'message':
        return new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
    }
  }

  async getChildren(node?: Node): Promise<Node[]> {
    try {
      if (!node) return await this.sessions();
      if (node.kind === 'session') return node.rows.map((row) => (row.kind === 'turn' ? { kind: 'turn', row } : row));
      if (node.kind === 'turn' || node.kind === 'snapshot') {
        const files = (await this.changes(node)).flatMap((r) =>
          r.changes.map((change): Node => ({ kind: 'file', at: { id: r.snapshotId, root: r.root }, change })),
        );
        if (files.length === 0) return [{ kind: 'message', text: vscode.l10n.t('The workspace matches this snapshot.') }];
        return files;
      }
      return [];
    } catch (err) {
      return [{ kind: 'message', text: errorText(err) }];
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const r = await this.request('snapshot/file', { id: q.get('id') ?? '', path: q.get('path') ?? '' });
    if (!r.exists) return '';
    if (r.binary) return vscode.l10n.t('(binary file, not shown)');
    return r.content;
  }

  /** "Compare with current" on a turn, a snapshot or one file. */
  async compare(node?: Node): Promise<void> {
    if (!node) return;
    if (node.kind === 'file') {
      await vscode.commands.executeCommand(
        'vscode.diff',
        snapshotUri(node.at.id, node.change.path),
        vscode.Uri.file(absolute(node.at.root, node.change.path)),
        vscode.l10n.t('{0} (snapshot) ↔ current', path.basename(node.change.path)),
      );
      return;
    }
    if (node.kind !== 'turn' && node.kind !== 'snapshot') return;
    const roots = await this.changes(node);
    const entries = roots.flatMap((r) =>
      r.changes.map((c) => {
        const current = vscode.Uri.file(absolute(r.root, c.path));
        return [current, snapshotUri(r.snapshotId, c.path), current];
      }),
    );
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The workspace matches this snapshot.'));
      return;
    }
    const title = node.kind === 'turn' ? node.row.message : snapshotTitle(node.snapshot);
    await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Before “{0}” ↔ current', title), entries);
  }

  /** Restore on a row: a turn rolls back every root; a snapshot, its root. */
  async restore(node?: Node): Promise<void> {
    if (node?.kind === 'turn') return this.rollbackTurn(node.row.sessionId, node.row.turnId);
    if (node?.kind !== 'snapshot') return;
    const s = node.snapshot;
    const { changes } = await this.request('snapshot/diff', { id: s.id });
    const question = vscode.l10n.t('Restore {0} to “{1}” ({2})?', path.basename(s.root), snapshotTitle(s), this.ago(s.time));
    if (!(await this.ask(question, [{ root: s.root, snapshotId: s.id, changes: changes.filter((c) => c.kind !== 'kept') }]))) return;
    const r = await this.request('snapshot/restore', { id: s.id });
    this.restored(vscode.l10n.t('Restored {0}.', filesLabel(r.changes.length)), [r.undoId]);
  }

  async restoreFile(node?: Node): Promise<void> {
    if (!node || node.kind !== 'file') return;
    const ok = vscode.l10n.t('Restore');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Restore {0} from the snapshot?', node.change.path),
      { modal: true, detail: `${kindLabel(node.change.kind)}: ${node.change.path}` },
      ok,
    );
    if (choice !== ok) return;
    const r = await this.request('snapshot/restoreFile', { id: node.at.id, path: node.change.path });
    this.restored(vscode.l10n.t('Restored {0}.', filesLabel(r.changes.length)), [r.undoId]);
  }

  async take(): Promise<void> {
    const message = await vscode.window.showInputBox({
      title: vscode.l10n.t('Take Snapshot'),
      prompt: vscode.l10n.t('Optional description'),
    });
    if (message === undefined) return;
    const r = await this.request('snapshot/create', { sessionId: this.currentSession(), message });
    if (r.created) void vscode.window.showInformationMessage(vscode.l10n.t('Snapshot taken.'));
    else void vscode.window.showInformationMessage(vscode.l10n.t('Nothing changed since the last snapshot.'));
    this.refresh();
  }

  /**
   * The chat's "Roll back to before this turn": says what it will change
   * (a dry run over every root), asks, then restores every root at once.
   */
  async rollbackTurn(sessionId: string, turnId: string): Promise<void> {
    const dry = await this.request('snapshot/restoreTurn', { sessionId, turnId, dryRun: true });
    if (!(await this.ask(vscode.l10n.t('Roll back to before this turn?'), dry.roots))) return;
    const r = await this.request('snapshot/restoreTurn', { sessionId, turnId });
    this.restored(r.notice || vscode.l10n.t('Restored {0}.', filesLabel(count(r.roots))), r.roots.map((x) => x.undoId ?? ''));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** A modal naming the scope ("3 files in 2 folders") and every change. */
  private async ask(question: string, roots: RootRestore[]): Promise<boolean> {
    const n = count(roots);
    if (n === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The workspace already matches this snapshot.'));
      return false;
    }
    const ok = vscode.l10n.t('Restore');
    const detail = [vscode.l10n.t('This changes {0}.', scopeLabel(roots)), describeChanges(roots)].join('\n\n');
    return (await vscode.window.showWarningMessage(question, { modal: true, detail }, ok)) === ok;
  }

  private restored(notice: string, undoIds: string[]): void {
    this.refresh();
    const undo = vscode.l10n.t('Undo');
    void vscode.window.showInformationMessage(notice, undo).then(async (c) => {
      if (c !== undo) return;
      let n = 0;
      for (const id of undoIds.filter(Boolean)) n += (await this.request('snapshot/restore', { id })).changes.length;
      this.refresh();
      void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0}.', filesLabel(n)));
    });
  }

  private async changes(node: Extract<Node, { kind: 'turn' | 'snapshot' }>): Promise<RootRestore[]> {
    if (node.kind === 'turn') {
      return (await this.request('snapshot/restoreTurn', { sessionId: node.row.sessionId, turnId: node.row.turnId, dryRun: true })).roots;
    }
    const { changes } = await this.request('snapshot/diff', { id: node.snapshot.id });
    return [{ root: node.snapshot.root, snapshotId: node.snapshot.id, changes }];
  }

  private ago(time: number): string {
    return relativeTime(time, Date.now(), this.locale());
  }

  private async sessions(): Promise<Node[]> {
    const [{ snapshots }, { sessions }] = await Promise.all([
      this.request('snapshot/list', {}),
      this.request('session/list', {}).catch(() => ({ sessions: [] as SessionInfo[] })),
    ]);
    if (snapshots.length === 0) return [{ kind: 'message', text: vscode.l10n.t('No snapshots yet.') }];
    const titles = new Map(sessions.map((s) => [s.id, s.title]));
    const groups = new Map<string, SnapshotInfo[]>();
    for (const s of snapshots) groups.set(s.sessionId, [...(groups.get(s.sessionId) ?? []), s]);
    return [...groups.entries()]
      .map(([sessionId, list]) => ({
        kind: 'session' as const,
        sessionId,
        title: sessionId === '' ? vscode.l10n.t('Manual snapshots') : titles.get(sessionId) || vscode.l10n.t('Untitled session'),
        rows: snapshotRows(list),
        newest: Math.max(...list.map((s) => s.time)),
      }))
      .sort((a, b) => b.newest - a.newest)
      .map(({ newest: _, ...n }) => n);
  }
}

function snapshotUri(id: string, file: string): vscode.Uri {
  const query = new URLSearchParams({ id, path: file }).toString();
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${file.replace(/\\/g, '/').replace(/^\/+/, '')}`, query });
}

function absolute(root: string, file: string): string {
  return path.isAbsolute(file) ? file : path.join(root, file);
}

function count(roots: RootRestore[]): number {
  return roots.reduce((n, r) => n + r.changes.length, 0);
}

function filesLabel(n: number): string {
  return n === 1 ? vscode.l10n.t('1 file') : vscode.l10n.t('{0} files', n);
}

/** "3 files", or "3 files in 2 folders" when more than one root changes. */
function scopeLabel(roots: RootRestore[]): string {
  const folders = roots.filter((r) => r.changes.length > 0).length;
  const files = filesLabel(count(roots));
  return folders > 1 ? vscode.l10n.t('{0} in {1} folders', files, folders) : files;
}

function snapshotTitle(s: SnapshotInfo): string {
  switch (s.reason) {
    case 'manual':
      return s.message && s.message !== 'manual snapshot' ? s.message : vscode.l10n.t('Manual snapshot');
    case 'before restore':
      return vscode.l10n.t('Before restoring “{0}”', s.message);
  }
  return s.message || s.reason || s.id.slice(0, 12);
}

function kindLabel(kind: string): string {
  switch (kind) {
    case 'modified':
      return vscode.l10n.t('modified');
    case 'recreated':
      return vscode.l10n.t('re-created');
    case 'deleted':
      return vscode.l10n.t('deleted');
    case 'kept':
      return vscode.l10n.t('kept');
    default:
      return kind;
  }
}

function describeChanges(roots: RootRestore[]): string {
  const many = roots.filter((r) => r.changes.length > 0).length > 1;
  const lines: string[] = [];
  for (const r of roots) {
    if (r.changes.length === 0) continue;
    if (many) lines.push(`${path.basename(r.root)}:`);
    for (const c of r.changes) lines.push(`${many ? '  ' : ''}${kindLabel(c.kind)}: ${c.path}`);
  }
  const shown = lines.slice(0, 40);
  if (lines.length > shown.length) shown.push(vscode.l10n.t('… and {0} more', lines.length - shown.length));
  return shown.join('\n');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
