// A recording stand-in for the parts of the vscode API the host adapters
// touch, used only by activation.test.ts through vi.mock. Every call that
// matters to a test is recorded in `recorded`.
import * as path from 'node:path';

export const recorded = {
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  executed: [] as Array<{ id: string; args: unknown[] }>,
  webviewProviders: new Map<string, any>(),
  treeViews: [] as string[],
  contentProviders: [] as string[],
  fileSystems: [] as string[],
  messages: [] as Array<{ level: string; text: string }>,
  logs: [] as string[],
  config: {} as Record<string, unknown>,
  secrets: new Map<string, string>(),
  status: [] as string[],
};

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...ds: Array<{ dispose(): unknown }>) {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose() {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Array<(e: T) => void> = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return new Disposable(() => (this.listeners = this.listeners.filter((x) => x !== l)));
  };
  fire(e: T) {
    for (const l of this.listeners) l(e);
  }
  dispose() {
    this.listeners = [];
  }
}

const noEvent = () => new Disposable();

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query: string,
  ) {}
  get fsPath() {
    return this.path;
  }
  static file(p: string) {
    return new Uri('file', p, '');
  }
  static from(c: { scheme: string; path?: string; query?: string }) {
    return new Uri(c.scheme, c.path ?? '', c.query ?? '');
  }
  static parse(s: string) {
    const u = new URL(s);
    return new Uri(u.protocol.replace(/:$/, ''), u.pathname, u.search.replace(/^\?/, ''));
  }
  static joinPath(base: Uri, ...parts: string[]) {
    return new Uri(base.scheme, path.posix.join(base.path, ...parts), '');
  }
  toString() {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`;
  }
}

export class MarkdownString {
  value = '';
  isTrusted: unknown;
  constructor(v = '', readonly supportThemeIcons = false) {
    this.value = v;
  }
  appendText(s: string) {
    this.value += s;
    return this;
  }
  appendMarkdown(s: string) {
    this.value += s;
    return this;
  }
}

export class ThemeColor {
  constructor(readonly id: string) {}
}
export class ThemeIcon {
  constructor(readonly id: string) {}
}
export class TreeItem {
  description?: string;
  tooltip?: string;
  iconPath?: unknown;
  contextValue?: string;
  resourceUri?: Uri;
  command?: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState?: number,
  ) {}
}
export class Range {
  constructor(
    readonly a: unknown,
    readonly b: unknown,
    readonly c?: unknown,
    readonly d?: unknown,
  ) {}
}
export class CodeLens {
  constructor(
    readonly range: Range,
    readonly command?: unknown,
  ) {}
}
export class WorkspaceEdit {
  ops: unknown[] = [];
  replace(...a: unknown[]) {
    this.ops.push(['replace', ...a]);
  }
  createFile(...a: unknown[]) {
    this.ops.push(['create', ...a]);
  }
  deleteFile(...a: unknown[]) {
    this.ops.push(['delete', ...a]);
  }
}
export class CancellationTokenSource {
  private emitter = new EventEmitter<void>();
  token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel() {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose() {}
}
export class TabInputText {}
export class TabInputTextDiff {}
export const FileSystemError = {
  FileNotFound: (u: unknown) => new Error(`not found ${String(u)}`),
  NoPermissions: (u: unknown) => new Error(`no permission ${String(u)}`),
};
export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}
export enum FileType {
  File = 1,
  Directory = 2,
}
export enum FileChangeType {
  Changed = 1,
  Created = 2,
  Deleted = 3,
}
export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}
export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export enum ProgressLocation {
  Notification = 15,
}

export const version = '1.99.0-fake';

export const l10n = {
  t: (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)])),
};

function outputChannel(name: string) {
  const line = (level: string) => (m: string) => recorded.logs.push(`${name} [${level}] ${m}`);
  return {
    name,
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: line('debug'),
    trace: line('trace'),
    appendLine: line('line'),
    show: () => undefined,
    dispose: () => undefined,
  };
}

function message(level: string) {
  return async (text: string) => {
    recorded.messages.push({ level, text });
    return undefined;
  };
}

export const window = {
  createOutputChannel: outputChannel,
  createStatusBarItem: () => ({
    name: '',
    text: '',
    tooltip: undefined as unknown,
    command: undefined as unknown,
    backgroundColor: undefined as unknown,
    show() {
      recorded.status.push(this.text);
    },
    dispose: () => undefined,
  }),
  registerWebviewViewProvider: (id: string, provider: unknown) => {
    recorded.webviewProviders.set(id, provider);
    return new Disposable();
  },
  createTreeView: (id: string) => {
    recorded.treeViews.push(id);
    return new Disposable();
  },
  showErrorMessage: message('error'),
  showWarningMessage: message('warning'),
  showInformationMessage: message('info'),
  showInputBox: async () => undefined,
  showQuickPick: async () => undefined,
  withProgress: async () => undefined,
  activeTextEditor: undefined,
  activeTerminal: undefined,
  onDidCloseTerminal: noEvent,
  tabGroups: { all: [] as unknown[], close: async () => true },
};

export const workspace = {
  workspaceFolders: undefined as unknown,
  workspaceFile: undefined as unknown,
  isTrusted: true,
  textDocuments: [] as unknown[],
  getConfiguration: () => ({
    get: (k: string) => recorded.config[k],
    // Every recorded value is a user-level one, as VS Code's inspect reports it.
    inspect: (k: string) => (recorded.config[k] === undefined ? undefined : { key: k, globalValue: recorded.config[k] }),
    update: async () => undefined,
  }),
  registerTextDocumentContentProvider: (scheme: string) => {
    recorded.contentProviders.push(scheme);
    return new Disposable();
  },
  registerFileSystemProvider: (scheme: string) => {
    recorded.fileSystems.push(scheme);
    return new Disposable();
  },
  onDidChangeTextDocument: noEvent,
  onDidChangeConfiguration: noEvent,
  onDidGrantWorkspaceTrust: noEvent,
  onDidChangeWorkspaceFolders: noEvent,
  asRelativePath: (p: string | Uri) => String(typeof p === 'string' ? p : p.path),
  applyEdit: async () => true,
  openTextDocument: async () => {
    throw new Error('no documents in the fake');
  },
  fs: { stat: async () => ({}) },
};

export const languages = {
  registerCodeLensProvider: () => new Disposable(),
  getDiagnostics: () => [],
};

export const commands = {
  registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
    recorded.commands.set(id, fn);
    return new Disposable(() => recorded.commands.delete(id));
  },
  executeCommand: async (id: string, ...args: unknown[]) => {
    recorded.executed.push({ id, args });
    return undefined;
  },
};

export const env = {
  language: 'zh-cn',
  shell: '/bin/bash',
  appRoot: '/nonexistent-vscode-app-root',
  openExternal: async () => true,
};

export function fakeContext(extensionPath: string, storage: string) {
  const secretsChanged = new EventEmitter<{ key: string }>();
  const mem = new Map<string, unknown>();
  return {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    extensionPath,
    extensionUri: Uri.file(extensionPath),
    // As VS Code lays them out: a per-window slot and the global folder.
    storageUri: Uri.file(path.join(storage, 'workspaceStorage', 'slot1', 'govibe.govibe')),
    globalStorageUri: Uri.file(path.join(storage, 'globalStorage', 'govibe.govibe')),
    extension: { packageJSON: { version: '0.1.0' } },
    secrets: {
      get: async (k: string) => recorded.secrets.get(k),
      store: async (k: string, v: string) => {
        recorded.secrets.set(k, v);
        secretsChanged.fire({ key: k });
      },
      delete: async (k: string) => void recorded.secrets.delete(k),
      onDidChange: secretsChanged.event,
    },
    workspaceState: {
      get: (k: string) => mem.get(k),
      update: async (k: string, v: unknown) => void mem.set(k, v),
    },
  };
}
