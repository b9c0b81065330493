// The read-only sides of GoVibe's diffs: the original of a pending edit
// (govibe-original) and both sides of an applied edit's "Open diff"
// (govibe-view). A TextDocumentContentProvider keyed by full URI.
import * as vscode from 'vscode';

/** Read-only documents keyed by full URI (govibe-original). */
export class ReadonlyDocs implements vscode.TextDocumentContentProvider {
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
