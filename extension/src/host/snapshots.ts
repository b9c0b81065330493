// The Snapshots tree (sessions → snapshots → changed files) and its actions.
// File contents at a snapshot come from a govibe-snapshot content provider.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientRequests, FileChange, SessionInfo, SnapshotInfo } from '../protocol.gen';
import { snapshotBeforeTurn, turnOrdinal } from '../turns';

export const SNAPSHOT_SCHEME = 'govibe-snapshot';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

type Node =
  | { kind: 'session'; sessionId: string; title: string; snapshots: SnapshotInfo[] }
  | { kind: 'snapshot'; snapshot: SnapshotInfo }
  | { kind: 'file'; snapshot: SnapshotInfo; change: FileChange }
  | { kind: 'message'; text: string };

export class SnapshotsView implements vscode.TreeDataProvider<Node>, vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly request: Request,
    private readonly currentSession: () => string | undefined,
  ) {
    this.disposables.push(
      vscode.window.createTreeView('govibe.snapshots', { treeDataProvider: this, showCollapseAll: true }),
      vscode.workspace.registerTextDocumentContentProvider(SNAPSHOT_SCHEME, this),
      this.changed,
    );
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'session': {
        const item = new vscode.TreeItem(node.title, vscode.TreeItemCollapsibleState.Collapsed);
        item.description = vscode.l10n.t('{0} snapshots', node.snapshots.length);
        item.iconPath = new vscode.ThemeIcon('comment-discussion');
        item.contextValue = 'govibe.session';
        return item;
      }
      case 'snapshot': {
        const s = node.snapshot;
        const item = new vscode.TreeItem(new Date(s.time).toLocaleString(), vscode.TreeItemCollapsibleState.Collapsed);
        // The reason comes first: "before turn" and "after turn" snapshots
        // of one turn share the time and the message.
        item.description = [reasonLabel(s.reason), s.message, vscode.l10n.t('{0} files changed', s.changedFiles)].filter(Boolean).join(' · ');
        item.tooltip = [s.message, s.reason, s.skipped?.length ? vscode.l10n.t('Left out: {0}', s.skipped.join(', ')) : '']
          .filter(Boolean)
          .join('\n');
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = 'govibe.snapshot';
        return item;
      }
      case 'file': {
        const item = new vscode.TreeItem(path.basename(node.change.path), vscode.TreeItemCollapsibleState.None);
        item.description = `${path.dirname(node.change.path) === '.' ? '' : path.dirname(node.change.path) + ' · '}${kindLabel(node.change.kind)}`;
        item.resourceUri = vscode.Uri.file(absolute(node.snapshot, node.change.path));
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
      if (node.kind === 'session') return node.snapshots.map((snapshot) => ({ kind: 'snapshot', snapshot }));
      if (node.kind === 'snapshot') {
        const { changes } = await this.request('snapshot/diff', { id: node.snapshot.id });
        if (changes.length === 0) return [{ kind: 'message', text: vscode.l10n.t('The workspace matches this snapshot.') }];
        return changes.map((change) => ({ kind: 'file', snapshot: node.snapshot, change }));
      }
      return [];
    } catch (err) {
      return [{ kind: 'message', text: errorText(err) }];
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const id = q.get('id') ?? '';
    const file = q.get('path') ?? '';
    const r = await this.request('snapshot/file', { id, path: file });
    if (!r.exists) return '';
    if (r.binary) return vscode.l10n.t('(binary file, not shown)');
    return r.content;
  }

  /** "Compare with current" on a snapshot or one of its files. */
  async compare(node?: Node): Promise<void> {
    if (!node || (node.kind !== 'snapshot' && node.kind !== 'file')) return;
    if (node.kind === 'file') {
      const current = vscode.Uri.file(absolute(node.snapshot, node.change.path));
      await vscode.commands.executeCommand(
        'vscode.diff',
        snapshotUri(node.snapshot, node.change.path),
        current,
        vscode.l10n.t('{0} (snapshot) ↔ current', path.basename(node.change.path)),
      );
      return;
    }
    const { changes } = await this.request('snapshot/diff', { id: node.snapshot.id });
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The workspace matches this snapshot.'));
      return;
    }
    await vscode.commands.executeCommand(
      'vscode.changes',
      vscode.l10n.t('Snapshot {0} ↔ current', new Date(node.snapshot.time).toLocaleString()),
      changes.map((c) => {
        const current = vscode.Uri.file(absolute(node.snapshot, c.path));
        return [current, snapshotUri(node.snapshot, c.path), current];
      }),
    );
  }

  /** Restores the whole workspace after a modal listing every file that changes. */
  async restore(node?: Node): Promise<void> {
    if (!node || node.kind !== 'snapshot') return;
    await this.restoreSnapshot(node.snapshot, vscode.l10n.t('Restore the workspace to the snapshot of {0}?', new Date(node.snapshot.time).toLocaleString()));
  }

  async restoreFile(node?: Node): Promise<void> {
    if (!node || node.kind !== 'file') return;
    const ok = vscode.l10n.t('Restore');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Restore {0} from the snapshot of {1}?', node.change.path, new Date(node.snapshot.time).toLocaleString()),
      { modal: true, detail: `${kindLabel(node.change.kind)}: ${node.change.path}` },
      ok,
    );
    if (choice !== ok) return;
    const r = await this.request('snapshot/restoreFile', { id: node.snapshot.id, path: node.change.path });
    this.restored(r.changes, r.undoId);
  }

  async take(): Promise<void> {
    const message = await vscode.window.showInputBox({
      title: vscode.l10n.t('Take Snapshot'),
      prompt: vscode.l10n.t('Optional description'),
    });
    if (message === undefined) return;
    const r = await this.request('snapshot/create', { sessionId: this.currentSession(), message });
    if (r.created) void vscode.window.showInformationMessage(vscode.l10n.t('Snapshot taken ({0} files changed).', r.snapshot.changedFiles));
    else void vscode.window.showInformationMessage(vscode.l10n.t('Nothing changed since the last snapshot.'));
    this.refresh();
  }

  /** Webview rollbackTurn: back to the workspace as it was before that turn. */
  async rollbackTurn(sessionId: string, turnId: string): Promise<void> {
    const messages = [];
    let beforeSeq: number | undefined;
    for (;;) {
      const page = await this.request('session/load', { sessionId, beforeSeq, limit: 500 });
      messages.push(...page.messages);
      if (!page.hasMore || page.messages.length === 0) break;
      beforeSeq = Math.min(...page.messages.map((m) => m.seq));
    }
    const ordinal = turnOrdinal(messages, turnId);
    const { snapshots } = await this.request('snapshot/list', { sessionId });
    const snap = ordinal > 0 ? snapshotBeforeTurn(snapshots, sessionId, ordinal) : undefined;
    if (!snap) {
      void vscode.window.showWarningMessage(vscode.l10n.t('No snapshot was taken before this turn, so it cannot be rolled back.'));
      return;
    }
    await this.restoreSnapshot(snap, vscode.l10n.t('Roll the workspace back to before this turn?'));
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async restoreSnapshot(snap: SnapshotInfo, question: string): Promise<void> {
    const { changes } = await this.request('snapshot/diff', { id: snap.id });
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The workspace already matches this snapshot.'));
      return;
    }
    const ok = vscode.l10n.t('Restore');
    const choice = await vscode.window.showWarningMessage(question, { modal: true, detail: describeChanges(changes) }, ok);
    if (choice !== ok) return;
    const r = await this.request('snapshot/restore', { id: snap.id });
    this.restored(r.changes, r.undoId);
  }

  private restored(changes: FileChange[], undoId: string): void {
    this.refresh();
    const undo = vscode.l10n.t('Undo');
    void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0} files.', changes.length), undo).then(async (c) => {
      if (c !== undo || !undoId) return;
      const r = await this.request('snapshot/restore', { id: undoId });
      this.refresh();
      void vscode.window.showInformationMessage(vscode.l10n.t('Restored {0} files.', r.changes.length));
    });
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
        snapshots: list.sort((a, b) => b.time - a.time),
      }))
      .sort((a, b) => b.snapshots[0].time - a.snapshots[0].time);
  }
}

function snapshotUri(s: SnapshotInfo, file: string): vscode.Uri {
  const query = new URLSearchParams({ id: s.id, path: file }).toString();
  return vscode.Uri.from({ scheme: SNAPSHOT_SCHEME, path: `/${file.replace(/\\/g, '/').replace(/^\/+/, '')}`, query });
}

function absolute(s: SnapshotInfo, file: string): string {
  return path.isAbsolute(file) ? file : path.join(s.root, file);
}

function kindLabel(kind: string): string {
  switch (kind) {
    case 'modified':
      return vscode.l10n.t('modified');
    case 'recreated':
      return vscode.l10n.t('re-created');
    case 'deleted':
      return vscode.l10n.t('deleted');
    default:
      return kind;
  }
}

function describeChanges(changes: FileChange[]): string {
  const shown = changes.slice(0, 40).map((c) => `${kindLabel(c.kind)}: ${c.path}`);
  if (changes.length > shown.length) shown.push(vscode.l10n.t('… and {0} more', changes.length - shown.length));
  return shown.join('\n');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function reasonLabel(reason: string | undefined): string {
  switch (reason) {
    case 'before turn':
      return vscode.l10n.t('before turn');
    case 'after turn':
      return vscode.l10n.t('after turn');
    case 'before restore':
      return vscode.l10n.t('before restore');
    case 'manual':
      return vscode.l10n.t('manual');
  }
  return reason ?? '';
}
