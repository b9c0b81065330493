// Activates the real extension entry point against a recording fake of the
// vscode API and a real sidecar process (the fake server fixture), then
// drives the chat view the way the webview would.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Uri, fakeContext, recorded, workspace } from './fakeVscode';
import { workspaceIdentity, workspaceStorageDir } from '../src/workspaceStorage';

vi.mock('vscode', () => import('./fakeVscode'));

const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'govibe-activate-'));
const recordFile = path.join(tmp, 'record.jsonl');
const extDir = path.join(tmp, 'ext');
const folder = path.join(tmp, 'proj');
// Sessions live in the workspace's folder under global storage; this
// window's old slot, which held sessions, is handed over to be merged.
const slot = path.join(tmp, 'storage', 'workspaceStorage', 'slot1', 'govibe.govibe');
const storage = workspaceStorageDir(path.join(tmp, 'storage', 'globalStorage', 'govibe.govibe'), workspaceIdentity([Uri.file(folder).toString()])!);

type Posted = { type: string; [k: string]: any };
const posted: Posted[] = [];
let onMessage: (m: unknown) => void = () => undefined;
let visibilityChanged: () => void = () => undefined;
const view = {
  visible: true,
  webview: {
    options: undefined as any,
    html: '',
    cspSource: 'vscode-webview://fake',
    asWebviewUri: (u: { toString(): string }) => u,
    onDidReceiveMessage: (cb: (m: unknown) => void) => {
      onMessage = cb;
    },
    postMessage: async (m: Posted) => {
      posted.push(m);
      return true;
    },
  },
  onDidChangeVisibility: (cb: () => void) => {
    visibilityChanged = cb;
  },
  onDidDispose: () => undefined,
};

function records(): Array<{ method: string; params: any }> {
  return fs.existsSync(recordFile)
    ? fs.readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    : [];
}

async function waitFor(cond: () => boolean, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let ext: typeof import('../src/extension');
let ctx: ReturnType<typeof fakeContext>;

beforeAll(async () => {
  fs.mkdirSync(path.join(extDir, 'extension', 'webview', 'l10n'), { recursive: true });
  // The webview's bundle, inlined into its HTML.
  const dist = path.join(extDir, 'extension', 'webview', 'dist');
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'main.js'), 'window.__govibeBundle = 1;');
  fs.writeFileSync(path.join(dist, 'main.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(dist, 'codicon.css'), '@font-face{src:url("./codicon.ttf?h")}');
  fs.writeFileSync(path.join(extDir, 'extension', 'webview', 'l10n', 'bundle.l10n.zh-cn.json'), JSON.stringify({ Send: '发送' }));
  process.env.FAKE_MODE = 'ok';
  process.env.FAKE_RECORD = recordFile;
  recorded.config['server.path'] = path.join(__dirname, 'fixtures', 'fakeServer.js');
  recorded.config.model = 'deepseek-reasoner';
  recorded.config.models = [{ name: 'fast', model: 'deepseek-chat', apiKey: 'sk-plain' }];
  recorded.secrets.set('govibe.apiKey', 'sk-secret');
  fs.mkdirSync(folder);
  fs.mkdirSync(slot, { recursive: true });
  fs.writeFileSync(path.join(slot, 'sessions.db'), '');
  workspace.workspaceFolders = [{ name: 'proj', index: 0, uri: Uri.file(folder) }];
  ext = await import('../src/extension');
  ctx = fakeContext(extDir, path.join(tmp, 'storage'));
  await ext.activate(ctx as any);
  await waitFor(() => recorded.status.at(-1) === '$(sparkle) GoVibe', 'the server to be ready');
});

afterAll(async () => {
  await ext?.deactivate();
  delete process.env.FAKE_MODE;
  delete process.env.FAKE_RECORD;
});

describe('activation', () => {
  it('registers every contributed command, the views and the virtual schemes', () => {
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
    expect([...recorded.commands.keys()].sort()).toEqual(contributed);
    expect([...recorded.webviewProviders.keys()]).toEqual(['govibe.chat']);
    expect(recorded.treeViews).toEqual(['govibe.snapshots']);
    expect(recorded.contentProviders.sort()).toEqual(['govibe-original', 'govibe-snapshot', 'govibe-view']);
    expect(recorded.fileSystems).toEqual(['govibe-proposal']);
  });

  it('initializes the sidecar with settings, secret keys, locale and capabilities', () => {
    const init = records().find((r) => r.method === 'initialize')!.params;
    expect(init.protocolVersion).toBe(1);
    expect(init.locale).toBe('zh-cn');
    expect(init.storageDir).toBe(storage);
    expect(fs.existsSync(init.storageDir)).toBe(true);
    expect(init.legacyStorageDirs).toEqual([slot]);
    expect(init.workspaceFolders).toEqual([{ name: 'proj', path: folder }]);
    expect(init.trusted).toBe(true);
    expect(init.capabilities).toEqual({ applyEdit: true, dirtyBuffer: true, diagnostics: true, confirm: true, terminalOutput: true });
    expect(init.host).toEqual({ os: process.platform, shell: '/bin/bash', ripgrepPath: '' });
    expect(init.settings.values.model).toBe('deepseek-reasoner');
    expect(init.settings.values.models).toEqual([{ name: 'fast', model: 'deepseek-chat' }]);
    expect(init.settings.apiKeys).toEqual({ '': 'sk-secret', fast: 'sk-plain' });
  });

  it('warns about a plain-text key', () => {
    expect(recorded.messages.some((m) => m.level === 'warning' && m.text.includes('govibe.models[fast].apiKey'))).toBe(true);
  });

  it('serves the webview with a strict CSP and no command URIs', () => {
    const provider = recorded.webviewProviders.get('govibe.chat');
    provider.resolveWebviewView(view);
    expect(view.webview.options.enableCommandUris).toBe(false);
    expect(view.webview.options.enableScripts).toBe(true);
    // The bundle, the browser screenshot folder and the MCP image folder
    // (both shown inline in the chat); nothing else.
    expect(view.webview.options.localResourceRoots.map(String)).toEqual([
      `file://${path.join(extDir, 'extension', 'webview', 'dist')}`,
      `file://${path.join(storage, 'browser')}`,
      `file://${path.join(storage, 'mcp-images')}`,
    ]);
    expect(view.webview.html).toMatch(/script-src 'nonce-[^']+'/);
    // The bundle is inline; the codicon font loads from the bundle's folder.
    expect(view.webview.html).toContain('window.__govibeBundle = 1;');
    expect(view.webview.html).toContain(`url("file://${path.join(extDir, 'extension', 'webview', 'dist', 'codicon.ttf')}?h")`);
    expect(view.webview.html).not.toContain('unsafe-eval');
  });

  it('answers ready with a snapshot, then streams events in order', async () => {
    onMessage({ type: 'ready' });
    await waitFor(() => posted.some((m) => m.type === 'snapshot'), 'a snapshot');
    const snap = posted.find((m) => m.type === 'snapshot')!;
    expect(snap.session.session.id).toBe('s1');
    expect(snap.sessions.map((s: { id: string }) => s.id)).toEqual(['s1']);
    expect(snap.l10n).toEqual({ Send: '发送' });
    expect(snap.locale).toBe('zh-cn');
    expect(snap.screenshots).toEqual({ dir: path.join(storage, 'browser'), base: `file://${path.join(storage, 'browser')}` });
    expect(snap.mcpImages).toEqual({ dir: path.join(storage, 'mcp-images'), base: `file://${path.join(storage, 'mcp-images')}` });

    onMessage({ type: 'send', text: 'hi' });
    await waitFor(() => posted.filter((m) => m.type === 'event').length === 2, 'two events');
    expect(posted.filter((m) => m.type === 'event').map((m) => [m.event.seq, m.event.text])).toEqual([
      [1, 'hel'],
      [2, 'lo'],
    ]);
    expect(records().find((r) => r.method === 'chat/send')!.params).toMatchObject({ sessionId: 's1', text: 'hi' });
  });

  it('holds events while hidden and replays only those after the new snapshot', async () => {
    view.visible = false;
    visibilityChanged();
    posted.length = 0;
    onMessage({ type: 'send', text: 'again' });
    await waitFor(() => records().filter((r) => r.method === 'chat/send').length === 2, 'the second send');
    await new Promise((r) => setTimeout(r, 150));
    expect(posted.filter((m) => m.type === 'event')).toEqual([]);
    view.visible = true;
    visibilityChanged();
    onMessage({ type: 'ready', sessionId: 's1' });
    await waitFor(() => posted.some((m) => m.type === 'snapshot'), 'the new snapshot');
    // The fake's session/load reports lastSeq 4: everything held is already in it.
    expect(posted.find((m) => m.type === 'snapshot')!.session.lastSeq).toBe(4);
    await new Promise((r) => setTimeout(r, 50));
    expect(posted.filter((m) => m.type === 'event')).toEqual([]);
  });

  it('refuses non-http links and pushes settings changes live', async () => {
    const before = recorded.executed.length;
    onMessage({ type: 'openLink', href: 'command:workbench.action.terminal.new' });
    await new Promise((r) => setTimeout(r, 20));
    expect(recorded.executed.length).toBe(before);
    expect(recorded.logs.some((l) => l.includes('refused to open non-http link'))).toBe(true);

    await ctx.secrets.store('govibe.apiKey', 'sk-new');
    await waitFor(() => records().some((r) => r.method === 'settings/didChange'), 'settings/didChange');
    const change = records().find((r) => r.method === 'settings/didChange')!.params;
    expect(change.settings.apiKeys).toEqual({ '': 'sk-new', fast: 'sk-plain' });
  });

  it('reviews an edit proposal hunk by hunk and sends the accepted hunks', async () => {
    recorded.executed.length = 0;
    onMessage({ type: 'send', text: 'edit c1' });
    await waitFor(() => recorded.executed.some((e) => e.id === 'vscode.diff'), 'the diff editor');
    const diff = recorded.executed.find((e) => e.id === 'vscode.diff')!;
    const [left, right, title] = diff.args as [{ toString(): string }, { toString(): string }, string];
    expect(left.toString()).toBe('govibe-original:///src/app.ts?id=c1');
    expect(right.toString()).toBe('govibe-proposal:///src/app.ts?id=c1');
    expect(title).toBe("app.ts ↔ GoVibe's proposal");
    expect(recorded.executed).toContainEqual({ id: 'setContext', args: ['govibe.pendingEdits', true] });
    await waitFor(() => posted.some((m) => m.type === 'confirm' && m.request.id === 'c1'), 'the chat card');

    await recorded.commands.get('govibe.rejectHunk')!('c1', 2);
    expect(records().some((r) => r.method === 'confirm/resolve')).toBe(false);
    await recorded.commands.get('govibe.acceptProposal')!('c1');
    const resolve = records().find((r) => r.method === 'confirm/resolve')!.params;
    expect(resolve).toEqual({ id: 'c1', decision: 'accept', content: 'a\nB\nc\nd\n', rejectedHunks: [2] });
    await waitFor(() => posted.some((m) => m.type === 'confirmClosed' && m.closed.id === 'c1'), 'confirm/closed');
    expect(recorded.executed).toContainEqual({ id: 'setContext', args: ['govibe.pendingEdits', false] });
  });

  it('turns rejecting every hunk into a rejection', async () => {
    onMessage({ type: 'send', text: 'edit c2' });
    await waitFor(() => posted.some((m) => m.type === 'confirm' && m.request.id === 'c2'), 'the second proposal');
    await recorded.commands.get('govibe.rejectHunk')!('c2', 1);
    await recorded.commands.get('govibe.rejectHunk')!('c2', 2);
    await waitFor(() => records().some((r) => r.method === 'confirm/resolve' && r.params.id === 'c2'), 'the resolve');
    expect(records().find((r) => r.method === 'confirm/resolve' && r.params.id === 'c2')!.params).toEqual({
      id: 'c2',
      decision: 'reject',
      rejectedHunks: [1, 2],
    });
  });

  it('closes pending proposals when the server restarts, and comes back ready', async () => {
    onMessage({ type: 'send', text: 'edit c3' });
    await waitFor(() => posted.some((m) => m.type === 'confirm' && m.request.id === 'c3'), 'the third proposal');
    recorded.executed.length = 0;
    recorded.status.length = 0;
    const starts = records().filter((r) => r.method === 'initialize').length;
    await recorded.commands.get('govibe.restartServer')!();
    expect(recorded.executed).toContainEqual({ id: 'setContext', args: ['govibe.pendingEdits', false] });
    expect(records().filter((r) => r.method === 'initialize').length).toBe(starts + 1);
    expect(recorded.status.at(-1)).toBe('$(sparkle) GoVibe');
    expect(recorded.logs.some((l) => l.includes('starting server: user: Restart Server'))).toBe(true);
  });

  it('refuses to overwrite a dirty buffer that differs, and reports dirty buffers', async () => {
    const { Uri, workspace } = await import('./fakeVscode');
    const file = path.join(tmp, 'dirty.ts');
    workspace.textDocuments = [{ uri: Uri.file(file), isDirty: true, getText: () => 'unsaved text\n' }];
    try {
      onMessage({ type: 'send', text: `apply ${file}` });
      await waitFor(() => records().some((r) => r.method === 'editor/applyEdit result'), 'the applyEdit answer');
      expect(records().find((r) => r.method === 'editor/applyEdit result')!.params).toEqual({
        applied: false,
        reason: 'the file has unsaved changes',
      });
      expect(recorded.messages.some((m) => m.level === 'warning' && m.text.includes('has unsaved changes that GoVibe did not see'))).toBe(true);

      onMessage({ type: 'send', text: `dirty ${file}` });
      await waitFor(() => records().some((r) => r.method === 'editor/dirtyBuffer result'), 'the dirtyBuffer answer');
      expect(records().find((r) => r.method === 'editor/dirtyBuffer result')!.params).toEqual({ dirty: true, text: 'unsaved text\n' });
    } finally {
      workspace.textDocuments = [];
    }
  });

  it('shows show_notification as a VS Code notification of its severity', async () => {
    recorded.messages.length = 0;
    onMessage({ type: 'send', text: 'notify warning The deploy finished.' });
    onMessage({ type: 'send', text: 'notify error Tests fail.' });
    onMessage({ type: 'send', text: 'notify info Done.' });
    await waitFor(() => recorded.messages.length === 3, 'three notifications');
    expect(recorded.messages).toEqual([
      { level: 'warning', text: 'GoVibe: The deploy finished.' },
      { level: 'error', text: 'GoVibe: Tests fail.' },
      { level: 'info', text: 'GoVibe: Done.' },
    ]);
  });

  it('withdraws the untrusted-workspace notice when the sidecar says trust was granted, and refreshes the MCP view', async () => {
    posted.length = 0;
    onMessage({ type: 'send', text: 'untrusted' });
    await waitFor(() => posted.some((m) => m.type === 'notice' && m.action === 'trustWorkspace'), 'the untrusted notice');
    onMessage({ type: 'send', text: 'trusted' });
    await waitFor(() => posted.some((m) => m.type === 'withdrawNotices'), 'the withdrawal');
    expect(posted.filter((m) => m.type === 'withdrawNotices')).toEqual([{ type: 'withdrawNotices', action: 'trustWorkspace' }]);
    // A withdrawal is no notice of its own.
    expect(posted.filter((m) => m.type === 'notice')).toHaveLength(1);
    await waitFor(() => posted.some((m) => m.type === 'mcp'), 'the refreshed MCP status');
    expect(posted.find((m) => m.type === 'mcp')?.status?.skipped).toEqual([]);
    expect(records().some((c) => c.method === 'mcp/status' && c.params.connect === true)).toBe(true);
  });

  it('relays server/notice to the chat with its remedy', async () => {
    posted.length = 0;
    onMessage({ type: 'send', text: 'notice' });
    await waitFor(() => posted.some((m) => m.type === 'notice'), 'the notice');
    expect(posted.find((m) => m.type === 'notice')).toEqual({
      type: 'notice',
      level: 'warning',
      text: 'moved a corrupt database aside',
      action: 'showLogs',
    });
  });
});
