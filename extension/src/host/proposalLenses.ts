// CodeLens on the proposal side of a pending edit's diff: Accept all /
// Reject all at the top, and Accept / Reject on each undecided hunk. The
// lenses read the review state; the commands they name change it.
import * as vscode from 'vscode';
import type { ProposalReview } from '../proposalReview';
import { PROPOSAL_SCHEME, idOf } from './proposalUris';

/** What the lenses need of one pending proposal. */
export interface LensTarget {
  id: string;
  review: ProposalReview;
  /** What the proposal document shows when the user has not typed into it. */
  rendered: string;
}

export class ProposalLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly lookup: (id: string) => LensTarget | undefined) {
    this.disposables.push(
      vscode.languages.registerCodeLensProvider({ scheme: PROPOSAL_SCHEME }, this),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PROPOSAL_SCHEME) this.changed.fire();
      }),
      this.changed,
    );
  }

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const id = idOf(doc.uri);
    const p = id ? this.lookup(id) : undefined;
    if (!p) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: `$(check) ${vscode.l10n.t('Accept all')}`, command: 'govibe.acceptProposal', arguments: [p.id] }),
      new vscode.CodeLens(top, { title: `$(close) ${vscode.l10n.t('Reject all')}`, command: 'govibe.rejectProposal', arguments: [p.id] }),
    ];
    if (doc.getText() !== p.rendered) {
      lenses.push(new vscode.CodeLens(top, { title: vscode.l10n.t('Your edits will be sent instead of the proposal'), command: '' }));
      return lenses;
    }
    const last = Math.max(doc.lineCount - 1, 0);
    for (const { hunk, line } of p.review.openHunks()) {
      const at = new vscode.Range(Math.min(line, last), 0, Math.min(line, last), 0);
      lenses.push(
        new vscode.CodeLens(at, { title: vscode.l10n.t('Accept hunk {0}', hunk.index), command: 'govibe.acceptHunk', arguments: [p.id, hunk.index] }),
        new vscode.CodeLens(at, { title: vscode.l10n.t('Reject hunk {0}', hunk.index), command: 'govibe.rejectHunk', arguments: [p.id, hunk.index] }),
      );
    }
    return lenses;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
