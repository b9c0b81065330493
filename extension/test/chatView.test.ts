// The chat view's start-up race: a message sent while the server is still
// starting creates a session, and the snapshot the "ready" transition
// started before that must not make the view follow a stale session (it
// used to, and the new session's live events were then dropped).
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Uri } from './fakeVscode';

vi.mock('vscode', () => import('./fakeVscode'));

type Posted = { type: string; [k: string]: any };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A ChatView with a visible webview: what it posts, and a way to message it. */
async function mountView(o: {
  request: unknown;
  state: unknown;
  log?: (l: string) => void;
  proposals?: unknown;
  locale?: () => string;
  extensionDir?: string;
  /** The state VS Code hands back to a reloaded view (resolveWebviewView's context). */
  viewState?: unknown;
}) {
  const { ChatView } = await import('../src/host/chatView');
  const view = new ChatView({
    extensionUri: Uri.file(o.extensionDir ?? '/nonexistent') as any,
    request: o.request as any,
    proposals: (o.proposals ?? {}) as any,
    snapshots: {} as any,
    editor: {} as any,
    locale: o.locale ?? (() => 'en'),
    log: o.log ?? (() => undefined),
    state: o.state as any,
  });
  const posted: Posted[] = [];
  let handler: (m: unknown) => Promise<void> | void = () => undefined;
  const pane: { title?: string } = {};
  const webview = {
    options: undefined,
    html: '',
    cspSource: 'x',
    asWebviewUri: (u: unknown) => u,
    onDidReceiveMessage: (cb: any) => (handler = cb),
    postMessage: async (m: Posted) => void posted.push(m),
  };
  view.resolveWebviewView({
    get title() {
      return pane.title;
    },
    set title(t: string | undefined) {
      pane.title = t;
    },
    visible: true,
    webview,
    onDidChangeVisibility: () => undefined,
    onDidDispose: () => undefined,
  } as any, { state: o.viewState } as any);
  return { view, posted, pane, webview, onMessage: (m: unknown) => handler(m) };
}

describe('ChatView start-up', () => {
  it('follows the session a send created, whatever order the loads finish in', async () => {
    const pending: Array<{ method: string; params: any; d: ReturnType<typeof deferred<any>> }> = [];
    const request = ((method: string, params: any) => {
      const d = deferred<any>();
      pending.push({ method, params, d });
      return d.promise;
    }) as any;
    const memento = new Map<string, unknown>();
    const { view, posted, onMessage } = await mountView({ request, state: { get: (k: string) => memento.get(k), update: async (k: string, v: unknown) => void memento.set(k, v), keys: () => [] }, proposals: { requested: async () => undefined } as any });
    const take = (method: string) => {
      const i = pending.findIndex((p) => p.method === method);
      expect(i, `a pending ${method}`).toBeGreaterThanOrEqual(0);
      return pending.splice(i, 1)[0];
    };

    onMessage({ type: 'ready' }); // while starting: an empty snapshot
    await flush();
    onMessage({ type: 'send', text: 'hello' }); // no session yet: creates one
    await flush();
    const create = take('session/create');
    view.serverStateChanged('ready'); // starts a load of "the newest session"
    await flush();
    const staleList = take('session/list');

    create.d.resolve({ id: 's-new' });
    await flush();
    const list = take('session/list');
    list.d.resolve({ sessions: [{ id: 's-new' }] });
    await flush();
    take('session/load').d.resolve({ id: 's-new', messages: [], lastSeq: 0, pending: [] });
    await flush();
    // The stale load answers last, from before the session existed.
    staleList.d.resolve({ sessions: [{ id: 's-old' }] });
    await flush();
    await flush();
    expect(pending.map((p) => p.method)).toEqual(['chat/send']);
    expect(view.sessionId).toBe('s-new');

    view.event({ sessionId: 's-new', seq: 1, kind: 'turnStarted', turnId: 't1' } as any);
    expect(posted.filter((m) => m.type === 'event').map((m) => m.event.sessionId)).toEqual(['s-new']);
    const snapshots = posted.filter((m) => m.type === 'snapshot');
    expect(snapshots.at(-1)?.session?.id).toBe('s-new');
  });

  it('clears an unreachable guess once the model answers', async () => {
    const { view, posted } = await mountView({ request: (async () => ({ sessions: [] })) as any, state: { get: () => 's1', update: async () => undefined, keys: () => [] } });
    const base = { label: 'm', model: 'm', baseUrl: 'http://x/v1', key: 'notNeeded' as const, profiles: [] };
    view.setModelStatus({ ...base, problem: { text: 'Cannot reach http://x/v1.', action: 'openSettings', unreachable: true } });
    view.event({ sessionId: 's1', seq: 1, kind: 'turnStarted', turnId: 't' } as any);
    expect(posted.filter((m) => m.type === 'model').at(-1)?.status.problem).toBeDefined();
    view.event({ sessionId: 's1', seq: 2, kind: 'textDelta', turnId: 't', text: 'hi' } as any);
    expect(posted.filter((m) => m.type === 'model').at(-1)?.status.problem).toBeUndefined();
    // A real problem (no key) is not a guess and stays.
    view.setModelStatus({ ...base, key: 'missing', problem: { text: 'no key', action: 'setApiKey' } });
    view.event({ sessionId: 's1', seq: 3, kind: 'textDelta', turnId: 't', text: 'more' } as any);
    expect(posted.filter((m) => m.type === 'model').at(-1)?.status.problem).toBeDefined();
  });

  it('a message sent right after picking a mode waits for the switch', async () => {
    const calls: string[] = [];
    const setMode = deferred<unknown>();
    const request = (async (method: string) => {
      calls.push(method);
      if (method === 'chat/setMode') return setMode.promise;
      if (method === 'session/list') return { sessions: [{ id: 's1' }] };
      if (method === 'session/load') return { session: { id: 's1' }, messages: [], lastSeq: 0, pending: [] };
      return {};
    }) as any;
    const { onMessage } = await mountView({ request, state: { get: () => 's1', update: async () => undefined, keys: () => [] } });
    void onMessage({ type: 'setMode', sessionId: 's1', mode: 'phases' });
    void onMessage({ type: 'send', sessionId: 's1', text: 'fix it' });
    await flush();
    expect(calls).toContain('chat/setMode');
    expect(calls).not.toContain('chat/send');
    setMode.resolve({});
    await flush();
    await flush();
    expect(calls.indexOf('chat/send')).toBeGreaterThan(calls.indexOf('chat/setMode'));
  });

  it('the edit toggle of a new chat creates the session, sets it, then shows it; a send waits', async () => {
    const calls: string[] = [];
    const created = deferred<unknown>();
    let made = false;
    const request = (async (method: string, params: any) => {
      calls.push(params?.enabled !== undefined ? `${method}:${params.sessionId}:${params.enabled}` : method);
      if (method === 'session/create') return created.promise.then((v) => ((made = true), v));
      // No session before the toggle: a new chat.
      if (method === 'session/list') return { sessions: made ? [{ id: 'n1' }] : [] };
      if (method === 'session/load') return { session: { id: 'n1' }, messages: [], lastSeq: 0, pending: [], editEnabled: false };
      return { sessionId: 'n1', turnId: 't' };
    }) as any;
    const { view, onMessage } = await mountView({ request, state: { get: () => undefined, update: async () => undefined, keys: () => [] } });
    view.serverStateChanged('ready');
    await flush();
    calls.length = 0;
    void onMessage({ type: 'setEditEnabled', enabled: false });
    void onMessage({ type: 'send', text: 'fix it' });
    await flush();
    expect(calls.filter((c) => c === 'session/create')).toHaveLength(1);
    expect(calls).not.toContain('chat/send');
    created.resolve({ id: 'n1' });
    await flush();
    await flush();
    await flush();
    const set = calls.indexOf('chat/setEditEnabled:n1:false');
    expect(set).toBeGreaterThan(calls.indexOf('session/create'));
    expect(calls.indexOf('session/load')).toBeGreaterThan(set);
    expect(calls.indexOf('chat/send')).toBeGreaterThan(set);
    // One session: the send used the one the toggle created.
    expect(calls.filter((c) => c === 'session/create')).toHaveLength(1);
  });

  it('a message sent right after New chat goes to the new chat, and so does a mode picked there', async () => {
    const calls: string[] = [];
    const created = deferred<{ id: string }>();
    let made = false;
    let current: string | undefined = 'alpha';
    const request = (async (method: string, params: any) => {
      calls.push(params?.sessionId ? `${method}:${params.sessionId}` : method);
      if (method === 'session/create') return created.promise.then((v) => ((made = true), v));
      if (method === 'session/list') return { sessions: made ? [{ id: 'n1' }, { id: 'alpha' }] : [{ id: 'alpha' }] };
      if (method === 'session/load') return { session: { id: params.sessionId }, messages: [], lastSeq: 0, pending: [] };
      return { sessionId: params?.sessionId, turnId: 't' };
    }) as any;
    const { view, onMessage } = await mountView({ request, state: { get: () => current, update: async (_k: string, v: string) => void (current = v), keys: () => [] } });
    view.serverStateChanged('ready');
    await flush();
    await flush();
    expect(view.sessionId).toBe('alpha');
    calls.length = 0;
    // The webview emptied itself on the click, so these name no session.
    void onMessage({ type: 'newSession' });
    void onMessage({ type: 'setMode', mode: 'plan' });
    void onMessage({ type: 'send', text: 'ping beta' });
    await flush();
    expect(calls).toEqual(['session/create']);
    created.resolve({ id: 'n1' });
    for (let i = 0; i < 6; i++) await flush();
    expect(calls.filter((c) => c.startsWith('chat/'))).toEqual(['chat/setMode:n1', 'chat/send:n1']);
    expect(calls.indexOf('chat/setMode:n1')).toBeGreaterThan(calls.indexOf('session/load:n1'));
    expect(view.sessionId).toBe('n1');
  });

  it('does not show a request the stopping server cut short, but shows other failures', async () => {
    const { ResponseError, ErrorCodes } = await import('vscode-jsonrpc/node');
    let fail: unknown;
    const logs: string[] = [];
    const { posted, onMessage } = await mountView({ request: (async (method: string) => {
      if (method === 'chat/send') throw fail;
      return { sessions: [] };
    }) as any, state: { get: () => 's1', update: async () => undefined, keys: () => [] }, log: (l: string) => logs.push(l) });
    onMessage({ type: 'ready' });
    await flush();
    fail = new ResponseError(ErrorCodes.PendingResponseRejected, 'Pending response rejected since connection got disposed');
    onMessage({ type: 'send', text: 'hi', sessionId: 's1' });
    await flush();
    expect(posted.filter((m) => m.type === 'notice')).toEqual([]);
    expect(logs.some((l) => l.includes('Pending response rejected'))).toBe(true);
    fail = new Error('the session is gone');
    onMessage({ type: 'send', text: 'hi', sessionId: 's1' });
    await flush();
    expect(posted.filter((m) => m.type === 'notice').map((m) => m.text)).toEqual(['the session is gone']);
  });

  it('a govibe.language change re-renders the chat in the new language and renames its pane, without a reload', async () => {
    let locale = 'en';
    const { view, posted, pane, onMessage } = await mountView({
      request: (async (method: string) => (method === 'session/list' ? { sessions: [] } : {})) as any,
      state: { get: () => undefined, update: async () => undefined, keys: () => [] },
      locale: () => locale,
      extensionDir: path.join(__dirname, '..', '..'),
    });
    expect(pane.title).toBe('Chat');
    await onMessage({ type: 'ready' });
    view.serverStateChanged('ready');
    await flush();
    const before = posted.filter((m) => m.type === 'snapshot').length;
    locale = 'zh-cn';
    view.languageChanged();
    await flush();
    const snaps = posted.filter((m) => m.type === 'snapshot');
    expect(snaps.length).toBeGreaterThan(before);
    const last = snaps.at(-1)!;
    expect(last.locale).toBe('zh-cn');
    expect(last.l10n?.['Send']).toBe('发送');
    expect(pane.title).toBe('聊天');
  });

  it('writes the saved draft into the page composer, in the view’s language', async () => {
    const noServer = { request: (async () => ({})) as any, state: { get: () => undefined, update: async () => undefined, keys: () => [] }, extensionDir: path.join(__dirname, '..', '..') };
    const zh = await mountView({ ...noServer, locale: () => 'zh-cn', viewState: { draft: 'half a <sentence>', sessionId: 's1' } });
    expect(zh.webview.html).toContain('>\nhalf a &lt;sentence></textarea>');
    expect(zh.webview.html).toContain('placeholder="向 GoVibe 提问…（/ 输入命令，@ 附加内容）"');
    // A first load has no saved state; a state of another shape is no draft.
    for (const viewState of [undefined, { draft: 42 }]) {
      const en = await mountView({ ...noServer, viewState });
      expect(en.webview.html).toContain('placeholder="Ask GoVibe… (/ for commands, @ to attach)" aria-label="Message">\n</textarea>');
    }
  });

  it('reads the session list again when the history opens (another window may have added a chat)', async () => {
    let listed = [{ id: 's1', title: 'mine' }];
    const calls: string[] = [];
    const { posted, onMessage } = await mountView({ request: (async (method: string) => {
      calls.push(method);
      return method === 'session/list' ? { sessions: listed } : {};
    }) as any, state: { get: () => undefined, update: async () => undefined, keys: () => [] } });
    listed = [{ id: 's2', title: 'theirs' }, { id: 's1', title: 'mine' }];
    await onMessage({ type: 'listSessions' });
    expect(calls).toEqual(['session/list']);
    expect(posted.filter((m) => m.type === 'sessions').at(-1)!.sessions.map((s: { id: string }) => s.id)).toEqual(['s2', 's1']);
  });

  it('opens a session with its first page only, asking for the list and the page together, once', async () => {
    const { FIRST_PAGE } = await import('../src/host/chatView');
    const pending: Array<{ method: string; params: any; d: ReturnType<typeof deferred<any>> }> = [];
    const request = ((method: string, params: any) => {
      const d = deferred<any>();
      pending.push({ method, params, d });
      return d.promise;
    }) as any;
    const memento = new Map<string, unknown>([['govibe.currentSession', 's-long']]);
    const { view, posted, onMessage } = await mountView({ request, state: { get: (k: string) => memento.get(k), update: async (k: string, v: unknown) => void memento.set(k, v), keys: () => [] }, proposals: { requested: async () => undefined } as any });
    // The server gets ready while the webview's script still loads: the
    // snapshot is fetched at once, the list and the page in one round trip.
    view.serverStateChanged('ready');
    await flush();
    expect(pending.map((p) => [p.method, p.params])).toEqual([
      ['session/load', { sessionId: 's-long', limit: FIRST_PAGE }],
      ['session/list', {}],
    ]);
    expect(FIRST_PAGE).toBeLessThanOrEqual(50);
    const page = { session: { id: 's-long' }, messages: [], lastSeq: 5000, pending: [], hasMore: true };
    pending[0].d.resolve(page);
    pending[1].d.resolve({ sessions: [{ id: 's-new' }, { id: 's-long' }] });
    await flush();
    expect(posted.filter((m) => m.type === 'snapshot')).toEqual([]); // its script is not listening yet
    // The webview's ready is answered with what was fetched: no second load.
    await onMessage({ type: 'ready' });
    await flush();
    expect(pending).toHaveLength(2);
    const snaps = posted.filter((m) => m.type === 'snapshot');
    expect(snaps).toHaveLength(1);
    expect(snaps[0].session).toBe(page);
    expect(view.sessionId).toBe('s-long');
    // Live events after the page's last seq go through.
    view.event({ sessionId: 's-long', seq: 5001, kind: 'turnStarted', turnId: 't1' } as any);
    expect(posted.filter((m) => m.type === 'event').map((m) => m.event.seq)).toEqual([5001]);
  });
});
