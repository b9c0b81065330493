// The editable side of a pending edit's diff (govibe-proposal): an
// in-memory FileSystemProvider, so the proposal is a normal document the
// user can type into and save. Only files of pending proposals exist.
import * as vscode from 'vscode';

/** In-memory files for proposals, so the right side is a normal editable doc. */
export class ProposalFs implements vscode.FileSystemProvider {
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
