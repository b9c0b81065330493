// Server→client requests: editor/applyEdit, editor/dirtyBuffer and
// editor/diagnostics. Each honours $/cancelRequest through its token.
import * as vscode from 'vscode';
import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  CodeRequestCancelled,
  Method,
  type ApplyEditParams,
  type ApplyEditResult,
  type Diagnostic,
  type DiagnosticsParams,
  type DiagnosticsResult,
  type DirtyBufferParams,
  type DirtyBufferResult,
  type TerminalOutputParams,
} from '../protocol.gen';
import { TerminalCapture } from './terminalOutput';

export const REFUSED_DIRTY = 'the file has unsaved changes';

/** Before/after text of edits applied through the editor, for "Open diff". */
export interface AppliedEdit {
  path: string;
  before: string;
  after: string;
  time: number;
}

export class EditorRequests {
  private readonly applied: AppliedEdit[] = [];
  /** Recent terminal output for @terminal (editor/terminalOutput). */
  readonly terminal: TerminalCapture;

  constructor(private readonly log: (line: string) => void) {
    this.terminal = new TerminalCapture(log);
  }

  attach(conn: MessageConnection): void {
    conn.onRequest(Method.EditorApplyEdit, (p: ApplyEditParams, token) => this.applyEdit(p, token));
    conn.onRequest(Method.EditorDirtyBuffer, (p: DirtyBufferParams) => dirtyBuffer(p));
    conn.onRequest(Method.EditorDiagnostics, (p: DiagnosticsParams, token) => diagnostics(p, token));
    conn.onRequest(Method.EditorTerminalOutput, (p: TerminalOutputParams) => this.terminal.output(p));
  }

  /** The newest applied edit of `path`, if any. */
  lastApplied(path: string): AppliedEdit | undefined {
    for (let i = this.applied.length - 1; i >= 0; i--) if (samePath(this.applied[i].path, path)) return this.applied[i];
    return undefined;
  }

  async applyEdit(p: ApplyEditParams, token: CancellationToken): Promise<ApplyEditResult> {
    const uri = vscode.Uri.file(p.path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && samePath(d.uri.fsPath, p.path));
    if (open?.isDirty && open.getText() !== p.expected) {
      const overwrite = vscode.l10n.t('Overwrite');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} has unsaved changes that GoVibe did not see. Apply GoVibe\'s edit over them?', vscode.workspace.asRelativePath(uri)),
        { modal: true, detail: vscode.l10n.t('Choosing Cancel tells the agent the file has unsaved changes.') },
        overwrite,
      );
      if (choice !== overwrite) return { applied: false, reason: REFUSED_DIRTY };
    }
    cancelled(token);
    const before = open ? open.getText() : p.expected;
    const edit = new vscode.WorkspaceEdit();
    if (p.delete) {
      edit.deleteFile(uri, { ignoreIfNotExists: true });
      const ok = await vscode.workspace.applyEdit(edit);
      if (ok) this.remember(p.path, before, '');
      return ok ? { applied: true } : { applied: false, reason: 'the editor refused to delete the file' };
    }
    if (!(await exists(uri))) {
      edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(p.content) });
      const ok = await vscode.workspace.applyEdit(edit);
      if (ok) this.remember(p.path, '', p.content);
      return ok ? { applied: true } : { applied: false, reason: 'the editor refused to create the file' };
    }
    const doc = open ?? (await vscode.workspace.openTextDocument(uri));
    cancelled(token);
    const whole = new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length));
    edit.replace(uri, whole, p.content);
    if (!(await vscode.workspace.applyEdit(edit))) {
      return { applied: false, reason: 'the editor refused the edit' };
    }
    if (!(await persisted(doc, uri))) {
      this.log(`applyEdit: ${p.path} was edited but could not be saved (dirty: ${doc.isDirty})`);
      return { applied: false, reason: 'the edit was applied to the open editor but saving the file failed' };
    }
    this.remember(p.path, before, doc.getText());
    return { applied: true };
  }

  private remember(path: string, before: string, after: string): void {
    this.applied.push({ path, before, after, time: Date.now() });
    if (this.applied.length > 200) this.applied.shift();
  }
}

function dirtyBuffer(p: DirtyBufferParams): DirtyBufferResult {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && samePath(d.uri.fsPath, p.path));
  if (!doc || !doc.isDirty) return { dirty: false };
  return { dirty: true, text: doc.getText() };
}

function diagnostics(p: DiagnosticsParams, token: CancellationToken): DiagnosticsResult {
  const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = p.path
    ? [[vscode.Uri.file(p.path), vscode.languages.getDiagnostics(vscode.Uri.file(p.path))]]
    : vscode.languages.getDiagnostics();
  const out: Diagnostic[] = [];
  for (const [uri, list] of entries) {
    cancelled(token);
    if (uri.scheme !== 'file') continue;
    for (const d of list) {
      out.push({
        path: uri.fsPath,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: severityName(d.severity),
        message: d.message,
        source: d.source,
      });
    }
  }
  return { diagnostics: out };
}

function severityName(s: vscode.DiagnosticSeverity): string {
  switch (s) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}

function cancelled(token: CancellationToken): void {
  if (token.isCancellationRequested) throw new ResponseError(CodeRequestCancelled, 'cancelled by the server');
}

/**
 * Saves an edited document and says whether the file on disk now holds its
 * text. save() is false when the document is not dirty, which also happens
 * when VS Code saved it first (files.refactoring.autoSave saves files a
 * workspace edit touched that no editor shows), and while that save is
 * still running: on a busy machine our save() lost the race and returned
 * false with the document still dirty, and a written edit was reported as
 * failed. So a false save waits (bounded) for the save in flight, and tries
 * once more if the document is still dirty after it.
 */
async function persisted(doc: vscode.TextDocument, uri: vscode.Uri): Promise<boolean> {
  if (await doc.save()) return true;
  if (doc.isDirty) {
    await savedOrTimeout(doc, SAVE_IN_FLIGHT_MS);
    if (doc.isDirty && !(await doc.save())) return false;
  }
  return !doc.isDirty && (await holds(uri, doc.getText()));
}

/** How long a save VS Code started itself may take to finish. */
const SAVE_IN_FLIGHT_MS = 15_000;

function savedOrTimeout(doc: vscode.TextDocument, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const sub = vscode.workspace.onDidSaveTextDocument((d) => {
      if (d === doc) done();
    });
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    }
    if (!doc.isDirty) done();
  });
}

/** Whether the file at uri holds exactly text. */
async function holds(uri: vscode.Uri, text: string): Promise<boolean> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) === text;
  } catch {
    return false;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

function samePath(a: string, b: string): boolean {
  return process.platform === 'win32' || process.platform === 'darwin' ? a.toLowerCase() === b.toLowerCase() : a === b;
}
