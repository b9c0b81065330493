// Entry point: wires the sidecar manager to VS Code. Logic lives in the
// vscode-free modules (sidecar/, transcript, hunks, settings); this file and
// host/ only adapt them.
import { manageAllowRules } from './host/allowRules';
import { type McpInputDeps, supplyMcpInputs, workspaceScope } from './mcpInputs';
import { pickMode, runPlan } from './host/modePicker';
import * as fs from 'node:fs';
import { addModel } from './host/addModel';
import { pickModel } from './modelPicker';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { ServerState } from '../shared/webviewMessages';
import {
  ConfirmEdit,
  Method,
  Version,
  type ChatEvent,
  type ConfirmClosed,
  type ConfirmRequest,
  type InitializeParams,
  type SessionInfo,
  type SnapshotInfo,
} from './protocol.gen';
import { paneTitle } from './paneTitles';
import { SECTION, buildSettings, setting } from './settings';
import { findRipgrep, findServerBinary } from './sidecar/binary';
import { SidecarManager } from './sidecar/manager';
import { sidecarEnv, spawnSidecar, withBrowserDriver } from './sidecar/spawn';
import { ApiKeys } from './host/apiKeys';
import { refreshModelStatus } from './host/modelStatus';
import { ChatView } from './host/chatView';
import { EditorRequests } from './host/editorRequests';
import { Proposals } from './host/proposals';
import { SnapshotsView } from './host/snapshots';
import { ServerStatusItem } from './host/status';
import { legacyStorageDirs, prepareWorkspaceStorage, slotBelongs, workspaceIdentity, workspaceStorageDir } from './workspaceStorage';

let manager: SidecarManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const activatedAt = Date.now();
  const log = vscode.window.createOutputChannel('GoVibe', { log: true });
  const keys = new ApiKeys(context.secrets);
  // The keys are asked for first of all: SecretStorage answers from the
  // window, slowly while it starts, and the first server start waits for
  // them (later starts read them again: a key may have changed).
  const keysImported = keys.importFromEnvironment(process.env).catch((err) => log.warn(`GOVIBE_API_KEY: ${String(err)}`));
  let firstKeys: Promise<Record<string, string>> | undefined = keysImported.then(() => keys.load());
  firstKeys.catch(() => undefined); // the start that awaits it reports the failure
  const editor = new EditorRequests((l) => log.warn(l));
  context.subscriptions.push(editor.terminal);
  const status = new ServerStatusItem();
  let trace: vscode.OutputChannel | undefined;
  const cfg = () => vscode.workspace.getConfiguration(SECTION);

  // Sessions belong to the workspace, not to the window's storage slot
  // (workspaceStorage.ts): every window on it shares one folder.
  const folderUris = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  const workspaceFile = vscode.workspace.workspaceFile?.toString();
  const identity = workspaceIdentity(folderUris, workspaceFile);
  const storageDir = identity
    ? workspaceStorageDir(context.globalStorageUri.fsPath, identity)
    : (context.storageUri ?? context.globalStorageUri).fsPath;
  const sameUri = (a: string, b: string) => vscode.Uri.parse(a).toString() === vscode.Uri.parse(b).toString();
  // Read at each start: a slot's sessions are merged once, by the sidecar.
  const legacyDirs = () =>
    identity ? legacyStorageDirs(context.storageUri?.fsPath, (slot) => slotBelongs(slot, folderUris, workspaceFile, sameUri)) : [];
  const locale = () => {
    const lang: string = setting((k) => cfg().get(k), 'language');
    return (lang === 'auto' ? vscode.env.language : lang).toLowerCase();
  };

  let chat: ChatView | undefined;
  const mgr = new SidecarManager({
    launch: () => {
      const command = findServerBinary(setting((k) => cfg().get(k), 'server.path'), context.extensionPath, process.platform);
      if (identity) prepareWorkspaceStorage(storageDir, identity);
      else fs.mkdirSync(storageDir, { recursive: true });
      // Read at each start: a changed list applies from the next sidecar start.
      const passthrough = cfg().get<string[]>('shell.env.passthrough') ?? [];
      return spawnSidecar({
        command,
        args: ['serve', '--stdio'],
        passthrough,
        cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? storageDir,
        env: withBrowserDriver(sidecarEnv(process.env, passthrough), context.extensionPath, process.execPath),
      });
    },
    initializeParams: async (): Promise<InitializeParams> => {
      // SecretStorage answers from the window: on a busy start-up this
      // wait is part of the server's start (logged to tell).
      const asked = Date.now();
      const read = firstKeys ?? keysImported.then(() => keys.load());
      firstKeys = undefined;
      const apiKeys = await read;
      log.info(`API keys read in ${Date.now() - asked} ms`);
      return {
        protocolVersion: Version,
        clientInfo: { name: 'vscode', version: `${context.extension.packageJSON.version} (VS Code ${vscode.version})` },
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath })),
        storageDir,
        legacyStorageDirs: legacyDirs(),
        // The editor's own language: govibe.language (in the settings) picks
        // over it in the sidecar, also when it changes later.
        locale: vscode.env.language.toLowerCase(),
        settings: buildSettings((k) => cfg().get(k), apiKeys, (k) => cfg().inspect(k)),
        capabilities: { applyEdit: true, dirtyBuffer: true, diagnostics: true, confirm: true, terminalOutput: true },
        trusted: vscode.workspace.isTrusted,
        host: { os: process.platform, shell: vscode.env.shell, ripgrepPath: findRipgrep(vscode.env.appRoot, process.platform) },
      };
    },
    attach: (conn: MessageConnection) => {
      editor.attach(conn);
      conn.onNotification(Method.ChatEvent, (e: ChatEvent) => chat?.event(e));
      conn.onNotification(Method.ConfirmRequested, (req: ConfirmRequest) => {
        if (req.kind === ConfirmEdit) void proposals.requested(req);
        chat?.confirm(req);
      });
      conn.onNotification(Method.ConfirmClosed, (c: ConfirmClosed) => {
        void proposals.closed(c.id);
        chat?.confirmClosed(c);
      });
      conn.onNotification(Method.SnapshotCreated, (s: SnapshotInfo) => {
        snapshots.refresh();
        chat?.snapshotCreated(s);
      });
      conn.onNotification(Method.SessionDidChange, (s: SessionInfo) => chat?.sessionChanged(s));
      // server/notice: start-up problems reported after initialize (a corrupt
      // database moved aside, ...). Named by string so this builds against
      // protocol versions with and without the generated constant.
      conn.onNotification('server/notice', (n: { level?: string; message?: string; action?: string; withdraw?: boolean }) => {
        if (n?.withdraw && n.action) {
          chat?.withdrawNotices(n.action);
          return;
        }
        if (!n?.message) return;
        const level = n.level === 'error' ? 'error' : n.level === 'warning' || n.level === 'warn' ? 'warning' : 'info';
        chat?.notice(level, n.message, n.action);
        if (level !== 'info') log.warn(`server notice: ${n.message}`);
      });
    },
    log: (l) => log.info(l),
  });
  manager = mgr;
  const request = mgr.request.bind(mgr) as SidecarManager['request'];

  const proposals = new Proposals({
    resolve: async (params) => {
      await mgr.request('confirm/resolve', params);
    },
    log: (l) => log.warn(l),
  });
  const snapshots = new SnapshotsView(request, () => chat?.sessionId, locale);
  const mcpInputDeps: McpInputDeps = {
    // Read at each use: adding a folder changes the workspace.
    get scope() {
      const ws = vscode.workspace;
      return workspaceScope((ws.workspaceFolders ?? []).map((f) => f.uri.toString()), ws.workspaceFile?.toString());
    },
    status: () => request('mcp/status', {}),
    setInputs: (values) => request('mcp/setInputs', { values }),
    get: async (key) => context.secrets.get(key),
    store: async (key, value) => context.secrets.store(key, value),
    delete: async (key) => context.secrets.delete(key),
    log: (line) => log.info(line),
    ask: async (i) =>
      vscode.window.showInputBox({
        title: vscode.l10n.t('MCP server input {0}', i.id),
        prompt: i.description || i.id,
        password: i.password ?? false,
        ignoreFocusOut: true,
      }),
  };
  chat = new ChatView({
    extensionUri: context.extensionUri,
    request,
    proposals,
    snapshots,
    editor,
    locale,
    log: (l) => log.info(l),
    state: context.workspaceState,
    storageDir,
    mcpInputs: () => supplyMcpInputs(mcpInputDeps, true),
    startMoments: { exthost: Math.round(activatedAt - process.uptime() * 1000), activate: activatedAt },
  });
  const chatView = chat;

  const applyTrace = () => {
    if (setting((k) => cfg().get(k), 'trace.server')) {
      trace ??= vscode.window.createOutputChannel('GoVibe (JSON-RPC trace)');
      const ch = trace;
      mgr.setTracer({ log: (message: unknown, data?: string) => ch.appendLine(data ? `${String(message)}\n${data}` : String(message)) });
    } else {
      mgr.setTracer(undefined);
    }
  };
  applyTrace();

  const refreshModel = async () => {
    await refreshModelStatus((k) => cfg().get(k), await keys.load(), (s) => chatView.setModelStatus(s), {
      noModel: () => vscode.l10n.t('No model is configured.'),
      noKey: (label) => vscode.l10n.t('No API key is set for {0}.', label),
      unreachable: (url) => vscode.l10n.t('Cannot reach {0}.', url),
    });
  };
  const pushSettings = async () => {
    void refreshModel();
    await mgr.notify('settings/didChange', { settings: buildSettings((k) => cfg().get(k), await keys.load(), (k) => cfg().inspect(k)) });
  };
  void refreshModel();

  mgr.onDidChangeState(({ state, detail }) => {
    if (state !== 'ready') void proposals.closeAll();
    // Inputs stored earlier reach each new sidecar without asking.
    if (state === 'ready') supplyMcpInputs(mcpInputDeps, false).catch((err) => log.warn(`MCP inputs: ${String(err)}`));
    chatView.serverStateChanged(state as ServerState, detail);
  });
  chatView.onDidChangeServerState((state, detail) => status.show(state, detail));
  // The sidecar starts now, while the webview loads: its start and the
  // webview's script are the two long steps of opening the chat.
  void mgr.start('activation').then(() => log.info(`server started ${Date.now() - activatedAt} ms after activation began`));
  mgr.onNotice((n) => {
    const text = n.restart
      ? vscode.l10n.t('The GoVibe server stopped unexpectedly ({0}). Restarting in {1} s ({2} of {3}).', n.restart.how, n.restart.delaySeconds, n.restart.crash, n.restart.max)
      : n.gaveUp
        ? vscode.l10n.t('The GoVibe server crashed {0} times within {1} minutes (last: {2}); it will not be restarted automatically.', n.gaveUp.crashes, n.gaveUp.windowMinutes, n.gaveUp.how)
        : n.text;
    chatView.notice(n.level, text, n.action);
    if (n.level === 'error') {
      const show = vscode.l10n.t('Show Logs');
      void vscode.window.showErrorMessage(text, show).then((c) => c === show && log.show());
    }
  });

  const guarded =
    (fn: (...args: any[]) => unknown) =>
    async (...args: any[]) => {
      try {
        // The result reaches executeCommand's caller (the chat view reads
        // the picked model).
        return await fn(...args);
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        log.error(msg);
        void vscode.window.showErrorMessage(msg);
      }
    };
  const command = (id: string, fn: (...args: any[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, guarded(fn)));

  context.subscriptions.push(
    log,
    status,
    proposals,
    snapshots,
    chatView,
    { dispose: () => trace?.dispose() },
    vscode.window.registerWebviewViewProvider('govibe.chat', chatView),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      if (e.affectsConfiguration(`${SECTION}.trace.server`)) applyTrace();
      if (e.affectsConfiguration(`${SECTION}.language`)) {
        // Applies at once: the chat re-renders in the new language, the
        // panes are renamed, the sidecar follows with the settings below.
        chatView.languageChanged();
        snapshots.setTitle(paneTitle(context.extensionUri.fsPath, locale(), 'view.snapshots'));
        snapshots.refresh();
      }
      if (e.affectsConfiguration(`${SECTION}.server.path`)) void mgr.restart('govibe.server.path changed');
      else void pushSettings();
      if (e.affectsConfiguration(`${SECTION}.apiKey`) || e.affectsConfiguration(`${SECTION}.models`)) void keys.warnAboutPlainKeys();
    }),
    context.secrets.onDidChange((e) => {
      if (e.key.startsWith('govibe.apiKey')) void pushSettings();
    }),
    // The sidecar reloads what trust gates (project skills with scripts,
    // commands, hooks, MCP) without a restart, so running turns survive.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void mgr.notify('workspace/didChangeTrust', { trusted: vscode.workspace.isTrusted })),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void mgr.restart('workspace folders changed')),
  );

  // make run's sample workspace carries .govibe/demo: open the chat at
  // once there, instead of leaving a newcomer in the Explorer.
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (fs.existsSync(path.join(f.uri.fsPath, '.govibe', 'demo'))) {
      void vscode.commands.executeCommand('govibe.chat.focus');
      break;
    }
  }
  command('govibe.newSession', () => chatView.newSession());
  command('govibe.setApiKey', async () => {
    if (await keys.promptAndStore()) await pushSettings();
  });
  // The chat header's model button calls this too; the sidecar reads
  // govibe.model per request, so the pick applies from the next one.
  command('govibe.pickModel', () => pickModel());
  // { use: true } comes from Pick Model with no profile yet: the new
  // profile becomes the model at once. Anything else (a palette run) asks.
  command('govibe.addModel', (arg?: unknown) => addModel(request, context.secrets, { use: (arg as { use?: unknown } | undefined)?.use === true }));
  command('govibe.restartServer', () => mgr.restart('user: Restart Server'));
  command('govibe.stopServer', () => mgr.stop('user: Stop Server'));
  command('govibe.showLogs', () => log.show());
  command('govibe.takeSnapshot', () => snapshots.take());
  command('govibe.acceptProposal', (arg?: unknown) => proposals.accept(arg));
  command('govibe.rejectProposal', (arg?: unknown) => proposals.reject(arg));
  command('govibe.acceptAll', () => proposals.acceptAll());
  command('govibe.rejectAll', () => proposals.rejectAll());
  command('govibe.reviewAll', () => proposals.reviewAll());
  command('govibe.acceptHunk', (id: string, hunk: number) => proposals.decideHunk(id, hunk, 'accepted'));
  command('govibe.rejectHunk', (id: string, hunk: number) => proposals.decideHunk(id, hunk, 'rejected'));
  command('govibe.stopAutoAccept', () => proposals.stopCountdowns());
  command('govibe.focusChat', async () => {
    await vscode.commands.executeCommand('govibe.chat.focus');
    chatView.focusInput();
  });
  command('govibe.compact', () => chatView.compact());
  command('govibe.alwaysAllowedRules', () => manageAllowRules(request));
  command('govibe.mcpServers', async () => {
    await vscode.commands.executeCommand('govibe.chat.focus');
    chatView.showMcp();
  });
  command('govibe.setMode', () => pickMode(request, chatView.sessionId));
  command('govibe.runPlan', () => runPlan(request, chatView.sessionId));
  command('govibe.snapshots.refresh', () => snapshots.refresh());
  command('govibe.snapshots.compare', (node) => snapshots.compare(node));
  command('govibe.snapshots.restore', (node) => snapshots.restore(node));
  command('govibe.snapshots.restoreFile', (node) => snapshots.restoreFile(node));

  snapshots.setTitle(paneTitle(context.extensionUri.fsPath, locale(), 'view.snapshots'));
  void keys.warnAboutPlainKeys();
  await keysImported;
  log.info(`activated in ${Date.now() - activatedAt} ms`);
}

export async function deactivate(): Promise<void> {
  await manager?.dispose();
  manager = undefined;
}
