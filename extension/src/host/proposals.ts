// The edit-confirmation UI. Each pending edit opens a diff whose left side is
// a read-only virtual document (govibe-original) and whose right side is an
// editable in-memory file (govibe-proposal). Both URIs carry ?id=<confirmId>
// so the tabs can be found and closed precisely. Per-hunk decisions live in
// ProposalReview; what is sent back is computed there.
//
// Every action on one proposal (a hunk decision, accept, reject) runs in
// order on that proposal's queue, and a hunk decision finishes only once
// the proposal document shows it. Otherwise an Accept clicked right after
// "Reject hunk 1" could read the document before VS Code reloaded it, and
// send the whole proposal while naming hunk 1 as rejected.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ProposalReview, type ReviewOutcome } from '../proposalReview';
import { ConfirmEdit, type ConfirmRequest, type ConfirmResolveParams } from '../protocol.gen';
import { ProposalFs } from './proposalFs';
import { ProposalLenses } from './proposalLenses';
import { ORIGINAL_SCHEME, PROPOSAL_SCHEME, VIEW_SCHEME, idOf, virtualUri } from './proposalUris';
import { ReadonlyDocs } from './readonlyDocs';

export { ORIGINAL_SCHEME, PROPOSAL_SCHEME, VIEW_SCHEME, idOf } from './proposalUris';

interface PendingEdit {
  req: ConfirmRequest;
  review: ProposalReview;
  originalUri: vscode.Uri;
  proposalUri: vscode.Uri;
  /** What this side last wrote into the proposal file. */
  rendered: string;
  countdown?: vscode.CancellationTokenSource;
  finishing: boolean;
  /** The tail of this proposal's action queue. */
  queue: Promise<void>;
}

export interface ProposalsDeps {
  resolve(params: ConfirmResolveParams): Promise<void>;
  log(line: string): void;
}

export class Proposals implements vscode.Disposable {
  private readonly pending = new Map<string, PendingEdit>();
  private readonly originals = new ReadonlyDocs();
  private readonly fs = new ProposalFs();
  private readonly lenses: ProposalLenses;
  private readonly disposables: vscode.Disposable[] = [];
  private viewSeq = 0;

  constructor(private readonly deps: ProposalsDeps) {
    this.lenses = new ProposalLenses((id) => {
      const p = this.pending.get(id);
      return p && { id, review: p.review, rendered: p.rendered };
    });
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(ORIGINAL_SCHEME, this.originals),
      vscode.workspace.registerTextDocumentContentProvider(VIEW_SCHEME, this.originals),
      vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, this.fs, { isCaseSensitive: true }),
      this.lenses,
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
      queue: Promise.resolve(),
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
    this.lenses.refresh();
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
    await this.serial(p, async () => this.finish(p, p.review.accept(await this.currentText(p))));
  }

  /** Reject command; asks for an optional reason unless one is given. */
  async reject(arg?: unknown, reason?: string): Promise<void> {
    const p = this.target(arg);
    if (!p) return void vscode.window.showInformationMessage(vscode.l10n.t('No GoVibe proposal is open.'));
    if (reason === undefined) {
      reason = await askReason();
      if (reason === undefined) return;
    }
    await this.serial(p, () => this.finish(p, { decision: 'reject', rejectedHunks: [], userEdited: false }, reason));
  }

  async acceptAll(): Promise<void> {
    for (const p of [...this.pending.values()]) await this.serial(p, async () => this.finish(p, p.review.accept(await this.currentText(p))));
  }

  async rejectAll(): Promise<void> {
    if (this.pending.size === 0) return;
    const reason = await askReason();
    if (reason === undefined) return;
    for (const p of [...this.pending.values()]) {
      await this.serial(p, () => this.finish(p, { decision: 'reject', rejectedHunks: [], userEdited: false }, reason));
    }
  }

  /** From the chat card. */
  async resolveFromChat(id: string, decision: 'accept' | 'reject', reason?: string): Promise<void> {
    if (decision === 'accept') await this.accept(id);
    else await this.reject(id, reason ?? '');
  }

  async decideHunk(id: string, hunk: number, decision: 'accepted' | 'rejected'): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    await this.serial(p, async () => {
      p.review.decide(hunk, decision);
      if (decision === 'rejected') await this.render(p);
      this.lenses.refresh();
      if (p.review.complete()) await this.finish(p, p.review.accept(await this.currentText(p)));
    });
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

  /**
   * Shows the proposal with rejected hunks reverted, and returns once the
   * document holds it: an open document is edited and saved through VS
   * Code (both awaited), so its text and the file agree when the next
   * queued action reads them.
   */
  private async render(p: PendingEdit): Promise<void> {
    p.rendered = p.review.rendered();
    const doc = this.openDoc(p);
    if (!doc) {
      this.fs.put(p.proposalUri, p.rendered);
      return;
    }
    if (doc.getText() === p.rendered) return;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.rendered);
    if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) {
      this.deps.log(`proposal ${p.req.id}: the document could not be updated; it is rewritten instead`);
      this.fs.put(p.proposalUri, p.rendered);
    }
  }

  /** Runs fn after every earlier action on p; a failure does not stall the queue. */
  private serial(p: PendingEdit, fn: () => Promise<void>): Promise<void> {
    const run = p.queue.then(fn);
    p.queue = run.catch(() => undefined);
    return run;
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
