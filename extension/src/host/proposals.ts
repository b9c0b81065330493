// The edit-confirmation UI. Each pending edit opens a diff whose left side is
// a read-only virtual document (govibe-original) and whose right side is an
// editable in-memory file (govibe-proposal). Both URIs carry ?id=<confirmId>
// so the tabs can be found and closed precisely. Per-hunk decisions live in
// ProposalReview; what is sent back is computed there.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ProposalReview, type ReviewOutcome } from '../proposalReview';
import { ConfirmEdit, type ConfirmRequest, type ConfirmResolveParams } from '../protocol.gen';

export const ORIGINAL_SCHEME = 'govibe-original';
export const PROPOSAL_SCHEME = 'govibe-proposal';
/** Read-only before/after views of edits already applied. */
export const VIEW_SCHEME = 'govibe-view';

interface PendingEdit {
  req: ConfirmRequest;
  review: ProposalReview;
  originalUri: vscode.Uri;
  proposalUri: vscode.Uri;
  /** What this side last wrote into the proposal file. */
  rendered: string;
  countdown?: vscode.CancellationTokenSource;
  finishing: boolean;
}

export interface ProposalsDeps {
  resolve(params: ConfirmResolveParams): Promise<void>;
  log(line: string): void;
}

export function idOf(uri: vscode.Uri): string | undefined {
  return new URLSearchParams(uri.query).get('id') ?? undefined;
}

function virtualUri(scheme: string, relPath: string, id: string): vscode.Uri {
  const clean = relPath.replace(/\\/g, '/').replace(/^\/+/, '');
  return vscode.Uri.from({ scheme, path: `/${clean}`, query: `id=${encodeURIComponent(id)}` });
}

/** Read-only documents keyed by full URI (govibe-original). */
class ReadonlyDocs implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  delete(uri: vscode.Uri): void {
    this.docs.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }
}

/** In-memory files for proposals, so the right side is a normal editable doc. */
class ProposalFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; ctime: number; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  private key(uri: vscode.Uri): string {
    return `${uri.path}?${uri.query}`;
  }

  put(uri: vscode.Uri, text: string): void {
    const now = Date.now();
    const prev = this.files.get(this.key(uri));
    this.files.set(this.key(uri), { data: new TextEncoder().encode(text), ctime: prev?.ctime ?? now, mtime: now });
    this.emitter.fire([{ type: prev ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(this.key(uri));
    return f ? new TextDecoder().decode(f.data) : undefined;
  }

  remove(uri: vscode.Uri): void {
    if (this.files.delete(this.key(uri))) this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(this.key(uri));
    if (f) return { type: vscode.FileType.File, ctime: f.ctime, mtime: f.mtime, size: f.data.byteLength };
    if (uri.query === '') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('proposals hold single files');
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(this.key(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(this.key(uri));
    // Only the proposal of a pending confirmation can be written (saved).
    if (!f) throw vscode.FileSystemError.NoPermissions(uri);
    f.data = content;
    f.mtime = Date.now();
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.remove(uri);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposals cannot be renamed');
  }
}

export class Proposals implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly pending = new Map<string, PendingEdit>();
  private readonly originals = new ReadonlyDocs();
  private readonly fs = new ProposalFs();
  private readonly lensChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensChanged.event;
  private readonly disposables: vscode.Disposable[] = [];
  private viewSeq = 0;

  constructor(private readonly deps: ProposalsDeps) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.originals),
      vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, this.originals),
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.fs, { isCaseSensitive: true }),
      vscode.languages.registerCodeLensProvider({ scheme: PROPOSAL_SCHEME }, this),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PROPOSAL_SCHEME) this.lensChanged.fire();
      }),
      this.lensChanged,
    );
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  get ids(): string[] {
    return [...this.pending.keys()];
  }

  /** confirm/requested with kind "edit". */
  async requested(req: ConfirmRequest): Promise<void> {
    if (req.kind !== ConfirmEdit || this.pending.has(req.id)) return;
    const rel = req.relPath || vscode.workspace.asRelativePath(req.path ?? 'file');
    const original = req.original ?? '';
    const proposed = req.delete ? '' : (req.proposed ?? '');
    const p: PendingEdit = {
      req,
      review: new ProposalReview(original, proposed),
      originalUri: virtualUri(ORIGINAL_SCHEME, rel, req.id),
      proposalUri: virtualUri(PROPOSAL_SCHEME, rel, req.id),
      rendered: proposed,
      finishing: false,
    };
    this.pending.set(req.id, p);
    this.originals.set(p.originalUri, original);
    this.fs.put(p.proposalUri, proposed);
    await this.updateContext();
    await this.show(req.id);
    if ((req.autoAcceptMs ?? 0) > 0) this.startCountdown(p, req.autoAcceptMs!);
  }

  /** confirm/closed, or after this side resolved. */
  async closed(id: string): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.countdown?.cancel();
    await closeTabs(id);
    this.originals.delete(p.originalUri);
    this.fs.remove(p.proposalUri);
    this.lensChanged.fire();
    await this.updateContext();
  }

  /** The server went away: its confirmations can no longer be answered. */
  async closeAll(): Promise<void> {
    for (const id of this.ids) await this.closed(id);
  }

  async show(id: string): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    const title = vscode.l10n.t("{0} ↔ GoVibe's proposal", path.basename(p.proposalUri.path));
    await vscode.commands.executeCommand('vscode.diff', p.originalUri, p.proposalUri, title, {
      preview: false,
      preserveFocus: false,
    });
  }

  /** A read-only diff of two texts, for "Open diff" on an already applied edit. */
  async showTexts(file: string, before: string, after: string): Promise<void> {
    const id = `view-${++this.viewSeq}`;
    const rel = vscode.workspace.asRelativePath(file);
    const left = virtualUri(VIEW_SCHEME, rel, `${id}-before`);
    const right = virtualUri(VIEW_SCHEME, rel, `${id}-after`);
    this.originals.set(left, before);
    this.originals.set(right, after);
    await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} (GoVibe edit)', path.basename(rel)), {
      preview: true,
    });
  }

  async reviewAll(ids?: string[]): Promise<void> {
    const list = (ids && ids.length > 0 ? ids : this.ids).map((id) => this.pending.get(id)).filter((p): p is PendingEdit => !!p);
    if (list.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No GoVibe proposals are waiting for review.'));
      return;
    }
    await vscode.commands.executeCommand(
      'vscode.changes',
      vscode.l10n.t("GoVibe's proposals ({0} files)", list.length),
      list.map((p) => [vscode.Uri.file(p.req.path ?? p.proposalUri.path), p.originalUri, p.proposalUri]),
    );
  }

  /** Accept command: `arg` is a confirm id, a proposal URI, or undefined for the active editor. */
  async accept(arg?: unknown): Promise<void> {
    const p = this.target(arg);
    if (!p) return void vscode.window.showInformationMessage(vscode.l10n.t('No GoVibe proposal is open.'));
    await this.finish(p, p.review.accept(await this.currentText(p)));
  }

  /** Reject command; asks for an optional reason unless one is given. */
  async reject(arg?: unknown, reason?: string): Promise<void> {
    const p = this.target(arg);
    if (!p) return void vscode.window.showInformationMessage(vscode.l10n.t('No GoVibe proposal is open.'));
    if (reason === undefined) {
      reason = await askReason();
      if (reason === undefined) return;
    }
    await this.finish(p, { decision: 'reject', rejectedHunks: [], userEdited: false }, reason);
  }

  async acceptAll(): Promise<void> {
    for (const p of [...this.pending.values()]) await this.finish(p, p.review.accept(await this.currentText(p)));
  }

  async rejectAll(): Promise<void> {
    if (this.pending.size === 0) return;
    const reason = await askReason();
    if (reason === undefined) return;
    for (const p of [...this.pending.values()]) await this.finish(p, { decision: 'reject', rejectedHunks: [], userEdited: false }, reason);
  }

  /** From the chat card. */
  async resolveFromChat(id: string, decision: 'accept' | 'reject', reason?: string): Promise<void> {
    if (decision === 'accept') await this.accept(id);
    else await this.reject(id, reason ?? '');
  }

  async decideHunk(id: string, hunk: number, decision: 'accepted' | 'rejected'): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    p.review.decide(hunk, decision);
    if (decision === 'rejected') {
      p.rendered = p.review.rendered();
      const doc = this.openDoc(p);
      if (doc?.isDirty) {
        // Reverting the hunk in a doc the user is typing into would lose their text.
        const edit = new vscode.WorkspaceEdit();
        edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.rendered);
        await vscode.workspace.applyEdit(edit);
        await doc.save();
      } else {
        this.fs.put(p.proposalUri, p.rendered);
      }
    }
    this.lensChanged.fire();
    if (p.review.complete()) await this.finish(p, p.review.accept(await this.currentText(p)));
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const id = idOf(doc.uri);
    const p = id ? this.pending.get(id) : undefined;
    if (!p) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: `$(check) ${vscode.l10n.t('Accept all')}`, command: 'govibe.acceptProposal', arguments: [p.req.id] }),
      new vscode.CodeLens(top, { title: `$(close) ${vscode.l10n.t('Reject all')}`, command: 'govibe.rejectProposal', arguments: [p.req.id] }),
    ];
    if (doc.getText() !== p.rendered) {
      lenses.push(new vscode.CodeLens(top, { title: vscode.l10n.t('Your edits will be sent instead of the proposal'), command: '' }));
      return lenses;
    }
    for (const { hunk, line } of p.review.openHunks()) {
      const at = new vscode.Range(Math.min(line, Math.max(doc.lineCount - 1, 0)), 0, Math.min(line, Math.max(doc.lineCount - 1, 0)), 0);
      lenses.push(
        new vscode.CodeLens(at, { title: vscode.l10n.t('Accept hunk {0}', hunk.index), command: 'govibe.acceptHunk', arguments: [p.req.id, hunk.index] }),
        new vscode.CodeLens(at, { title: vscode.l10n.t('Reject hunk {0}', hunk.index), command: 'govibe.rejectHunk', arguments: [p.req.id, hunk.index] }),
      );
    }
    return lenses;
  }

  stopCountdowns(): void {
    for (const p of this.pending.values()) p.countdown?.cancel();
  }

  dispose(): void {
    this.stopCountdowns();
    for (const d of this.disposables) d.dispose();
  }

  private target(arg: unknown): PendingEdit | undefined {
    if (typeof arg === 'string') return this.pending.get(arg);
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (uri && (uri.scheme === PROPOSAL_SCHEME || uri.scheme === ORIGINAL_SCHEME)) {
      const id = idOf(uri);
      if (id) return this.pending.get(id);
    }
    return this.pending.size === 1 ? [...this.pending.values()][0] : undefined;
  }

  private openDoc(p: PendingEdit): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposalUri.toString());
  }

  private async currentText(p: PendingEdit): Promise<string> {
    return this.openDoc(p)?.getText() ?? this.fs.text(p.proposalUri) ?? p.rendered;
  }

  private async finish(p: PendingEdit, outcome: ReviewOutcome, reason?: string): Promise<void> {
    if (p.finishing) return;
    p.finishing = true;
    p.countdown?.cancel();
    const params: ConfirmResolveParams = { id: p.req.id, decision: outcome.decision };
    if (reason) params.reason = reason;
    if (outcome.rejectedHunks.length > 0) params.rejectedHunks = outcome.rejectedHunks;
    if (outcome.decision === 'accept' && !p.req.delete && outcome.content !== undefined) params.content = outcome.content;
    try {
      await this.deps.resolve(params);
    } catch (err) {
      this.deps.log(`confirm/resolve ${p.req.id}: ${err instanceof Error ? err.message : String(err)}`);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('GoVibe could not record your decision: {0}', err instanceof Error ? err.message : String(err)),
      );
    }
    const doc = this.openDoc(p);
    if (doc?.isDirty) await doc.save();
    await this.closed(p.req.id);
  }

  private startCountdown(p: PendingEdit, ms: number): void {
    const cts = new vscode.CancellationTokenSource();
    p.countdown = cts;
    const deadline = Date.now() + ms;
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('GoVibe will accept its edit to {0}', path.basename(p.proposalUri.path)),
        cancellable: true,
      },
      (progress, token) =>
        new Promise<void>((resolve) => {
          const stop = () => {
            clearInterval(timer);
            resolve();
          };
          token.onCancellationRequested(() => {
            cts.cancel();
          });
          cts.token.onCancellationRequested(stop);
          const tick = () => {
            const left = deadline - Date.now();
            if (left <= 0) {
              stop();
              if (this.pending.get(p.req.id) === p && !cts.token.isCancellationRequested) {
                p.countdown = undefined;
                void this.accept(p.req.id);
              }
              return;
            }
            progress.report({ message: vscode.l10n.t('in {0} s — cancel to review it yourself', Math.ceil(left / 1000)) });
          };
          const timer = setInterval(tick, 250);
          tick();
        }),
    );
  }

  private async updateContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'govibe.pendingEdits', this.pending.size > 0);
    await vscode.commands.executeCommand('setContext', 'govibe.multiplePendingEdits', this.pending.size > 1);
  }
}

async function askReason(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Reject proposal'),
    prompt: vscode.l10n.t('Optionally tell GoVibe why (Enter to reject without a reason, Escape to go back).'),
    ignoreFocusOut: true,
  });
}

async function closeTabs(id: string): Promise<void> {
  const matches = (u: vscode.Uri | undefined) =>
    !!u && (u.scheme === ORIGINAL_SCHEME || u.scheme === PROPOSAL_SCHEME) && idOf(u) === id;
  const tabs: vscode.Tab[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputTextDiff && (matches(input.original) || matches(input.modified))) tabs.push(tab);
      else if (input instanceof vscode.TabInputText && matches(input.uri)) tabs.push(tab);
    }
  }
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
