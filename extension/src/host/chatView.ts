// The chat webview view (host side). The host owns the transcript: on
// `ready` it posts a fresh session/load snapshot, then live deltas through
// the TranscriptBuffer, which holds them while the view is hidden (there is
// no retainContextWhenHidden, so a hidden view loses its DOM and posts
// `ready` again when shown).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ErrorCodes } from 'vscode-jsonrpc/node';
import { BOOT_LABEL, BOOT_PLACEHOLDER, type BootText } from '../../shared/bootInput';
import type { HostMessage, ModelStatus, ScreenshotRoot, ServerState, WebviewMessage } from '../../shared/webviewMessages';
import { REMEDY_COMMANDS, isRemedy } from '../errorActions';
import {
  ConfirmEdit,
  EventError,
  EventNotification,
  EventTextDelta,
  EventUsage,
  EventTurnFinished,
  EventTurnStarted,
  type ChatEvent,
  type ClientRequests,
  type ConfirmClosed,
  type ConfirmRequest,
  type EditorContext,
  type MCPStatusResult,
  type SessionInfo,
  type SessionLoadResult,
  type SnapshotInfo,
} from '../protocol.gen';
import { paneTitle } from '../paneTitles';
import { TranscriptBuffer } from '../transcript';
import { answerCompletion, isCompletionMessage, type SymbolSearch } from './chatCompletions';
import { MCP_IMAGE_DIR, absoluteCodiconFont, isExternalLink, isMcpImagePath, isScreenshotPath, makeNonce, webviewHtml } from '../webviewHtml';
import type { EditorRequests } from './editorRequests';
import { mcpAction } from './mcpView';
import { showAgentNotification } from './notifications';
import type { Proposals } from './proposals';
import type { SnapshotsView } from './snapshots';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

export interface ChatViewDeps {
  extensionUri: vscode.Uri;
  request: Request;
  proposals: Proposals;
  snapshots: SnapshotsView;
  editor: EditorRequests;
  locale(): string;
  log(line: string): void;
  /** Persists the followed session across reloads. */
  state: vscode.Memento;
  /** The sidecar's storage directory: the only place screenshots are opened from. */
  storageDir?: string;
  /** Asks for the .vscode/mcp.json inputs servers wait for and sends them (mcpInputs.ts). */
  mcpInputs?: () => Promise<MCPStatusResult>;
  /** Start-up moments before the view (epoch ms), passed to the webview for the start-up benchmark. */
  startMoments?: Record<string, number>;
}

const SESSION_KEY = 'govibe.currentSession';

/** The webview's bundle and styles, read once per extension host (they ship with the extension). */
let assetCache: { dir: string; script: string; style: string; codicons: string } | undefined;

function webviewAssets(dir: string, log: (line: string) => void): { script: string; style: string; codicons: string } {
  if (assetCache?.dir !== dir) {
    const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
    try {
      assetCache = { dir, script: read('main.js'), style: read('main.css'), codicons: read('codicon.css') };
    } catch (err) {
      // A broken install: say so in the view instead of leaving it blank.
      log(`the chat view's files are unreadable: ${err instanceof Error ? err.message : String(err)}`);
      const text = vscode.l10n.t("GoVibe's chat view files are missing ({0}). Reinstall the extension.", dir);
      return { script: `document.getElementById('root').textContent = ${JSON.stringify(text)};`, style: '', codicons: '' };
    }
  }
  return assetCache;
}

/**
 * Messages in the first page a session opens with: a screenful and more.
 * Older pages come as the transcript scrolls up (`loadMore`, the server's
 * page of 200), so opening a session costs the same whatever its length.
 */
export const FIRST_PAGE = 40;

/** A snapshot fetched when the server got ready is used up to this age. */
const PREFETCH_MAX_AGE_MS = 10_000;

interface Fetched {
  sessions: SessionInfo[];
  sessionId: string | undefined;
  load: SessionLoadResult | null;
}

export class ChatView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly buffer: TranscriptBuffer;
  private serverState: ServerState = 'starting';
  private serverDetail: string | undefined;
  private readonly running = new Set<string>();
  private readonly stateListeners: Array<(s: ServerState, detail?: string) => void> = [];
  private loading = 0;
  private model: ModelStatus | undefined;
  /**
   * The tail of the work that decides which session "the current chat" is
   * and how its next turn runs: New chat, a send, a mode pick, the edit
   * toggle. Webview messages are handled concurrently, so without this a
   * message sent right after New chat went to the previous chat (its
   * session/create had not answered yet) and a mode picked right before a
   * send applied after it. Each step reads the current session only when
   * its turn comes.
   */
  private ordered: Promise<unknown> = Promise.resolve();
  /** The screenshot folder and its webview URI (set with the view). */
  private screenshots: ScreenshotRoot | undefined;
  /** The MCP image folder and its webview URI (set with the view). */
  private mcpImages: ScreenshotRoot | undefined;
  /**
   * The snapshot fetched when the server got ready before the webview's
   * script did: the webview's `ready` posts it instead of waiting for a
   * second session/list and session/load.
   */
  private prefetched: { wanted: string | undefined; ticket: number; at: number; snapshot: Promise<Fetched | undefined> } | undefined;
  /** When the view was resolved, for the start-up log line. */
  private resolvedAt = 0;

  constructor(private readonly deps: ChatViewDeps) {
    this.buffer = new TranscriptBuffer({ post: (m) => this.post(m) });
    this.buffer.follow(deps.state.get<string>(SESSION_KEY));
  }

  get sessionId(): string | undefined {
    return this.buffer.currentSession;
  }

  /** Busy while any turn runs. */
  onDidChangeServerState(listener: (s: ServerState, detail?: string) => void): void {
    this.stateListeners.push(listener);
  }

  resolveWebviewView(view: vscode.WebviewView, context?: vscode.WebviewViewResolveContext): void {
    this.view = view;
    this.resolvedAt = Date.now();
    this.webviewReady = false;
    this.applyTitle();
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, 'extension', 'webview', 'dist');
    // Browser screenshots and MCP tool images are shown inline: the
    // webview may load files from those two folders too, and from nowhere
    // else on disk.
    const storage = this.deps.storageDir;
    const shots = storage ? vscode.Uri.file(path.join(storage, 'browser')) : undefined;
    const images = storage ? vscode.Uri.file(path.join(storage, MCP_IMAGE_DIR)) : undefined;
    this.screenshots = shots && { dir: shots.fsPath, base: view.webview.asWebviewUri(shots).toString() };
    this.mcpImages = images && { dir: images.fsPath, base: view.webview.asWebviewUri(images).toString() };
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: shots && images ? [dist, shots, images] : [dist],
    };
    const nonce = makeNonce();
    const assets = webviewAssets(dist.fsPath, (l) => this.deps.log(l));
    view.webview.html = webviewHtml({
      cspSource: view.webview.cspSource,
      nonce,
      script: assets.script,
      style: assets.style,
      codiconStyle: absoluteCodiconFont(assets.codicons, view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.ttf')).toString()),
      lang: this.deps.locale(),
      startMoments: { ...this.deps.startMoments, resolve: this.resolvedAt },
      boot: bootText(context?.state, webviewBundle(this.deps.extensionUri.fsPath, this.deps.locale())),
    });
    view.webview.onDidReceiveMessage((m: WebviewMessage) => {
      this.onMessage(m).catch((err) => this.failed(err));
    });
    view.onDidChangeVisibility(() => {
      if (!view.visible) this.buffer.hold();
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.buffer.hold();
    });
  }

  // ---- server → host ----

  event(e: ChatEvent): void {
    const before = this.running.size;
    if (e.kind === EventTurnStarted && e.turnId) this.running.add(`${e.sessionId}/${e.turnId}`);
    if (e.kind === EventTurnFinished && e.turnId) this.running.delete(`${e.sessionId}/${e.turnId}`);
    if ((before === 0) !== (this.running.size === 0)) this.publishState();
    this.buffer.event(e);
    // The model answered: the endpoint is reachable, whatever the start-up
    // probe guessed.
    if ((e.kind === EventTextDelta || e.kind === EventUsage) && this.model?.problem?.unreachable) {
      this.setModelStatus({ ...this.model, problem: undefined });
    }
    if (e.kind === EventError && e.error && (!this.view || !this.view.visible)) {
      void this.offerRemedy(e.error.message, e.error.action);
    }
    if (e.kind === EventNotification && e.notification) showAgentNotification(e.notification, !!this.view?.visible);
  }

  confirm(req: ConfirmRequest): void {
    this.buffer.confirm(req);
    if (req.kind !== ConfirmEdit && (!this.view || !this.view.visible)) {
      const open = vscode.l10n.t('Open Chat');
      void vscode.window.showInformationMessage(vscode.l10n.t('GoVibe is waiting for your answer.'), open).then((c) => {
        if (c === open) void vscode.commands.executeCommand('govibe.chat.focus');
      });
    }
  }

  confirmClosed(c: ConfirmClosed): void {
    this.buffer.confirmClosed(c);
  }

  sessionChanged(_info: SessionInfo): void {
    void this.refreshSessions();
  }

  snapshotCreated(snapshot: SnapshotInfo): void {
    this.post({ type: 'snapshotCreated', snapshot });
  }

  /** The header's model status; kept to re-post when the view reloads. */
  setModelStatus(status: ModelStatus): void {
    this.model = status;
    this.post({ type: 'model', status });
  }

  serverStateChanged(state: ServerState, detail?: string): void {
    if (state !== 'ready') this.running.clear();
    this.serverState = state;
    this.serverDetail = detail;
    this.publishState();
    if (state !== 'ready') this.prefetched = undefined;
    // A webview still loading its script would drop the snapshot: fetch
    // it now and post it when the webview says ready.
    else if (this.view && this.webviewReady) void this.sendSnapshot(this.sessionId);
    else this.prefetch();
  }

  private prefetch(): void {
    const wanted = this.sessionId;
    const ticket = ++this.loading;
    this.buffer.hold();
    const snapshot = this.fetchSnapshot(wanted, () => ticket === this.loading);
    snapshot.catch(() => undefined); // reported when used
    this.prefetched = { wanted, ticket, at: Date.now(), snapshot };
  }

  notice(level: 'info' | 'warning' | 'error', text: string, action?: string): void {
    // Only a webview that said "ready" listens: a message posted while its
    // script is still loading is lost.
    if (this.view && this.webviewReady) this.post({ type: 'notice', level, text, action });
    else if (level === 'error' && !this.view) void this.offerRemedy(text, action);
    // Start-up warnings (an ignored workspace setting) usually arrive before
    // the chat is opened: keep a few for when it is.
    else if (this.unshown.length < 20) this.unshown.push({ level, text, action });
  }

  /**
   * Removes the notices carrying `action`, shown or still waiting for the
   * chat: the sidecar withdrew them (trust granted wherever it was, the
   * notice's button or VS Code's Manage Workspace Trust). An open MCP
   * view is refreshed too, as it named the files trust had skipped.
   */
  withdrawNotices(action: string): void {
    this.unshown = this.unshown.filter((n) => n.action !== action);
    if (!this.view || !this.webviewReady) return;
    this.post({ type: 'withdrawNotices', action });
    if (action === 'trustWorkspace') void mcpAction(this.deps.request, undefined, 'connect').then((m) => this.post(m));
  }

  /**
   * A request that failed. One cut short because the server stopped is
   * not shown: the sidecar manager already says the server stopped and is
   * restarting, and a second banner with jsonrpc's "Pending response
   * rejected" told the user nothing.
   */
  private failed(err: unknown): void {
    const code = (err as { code?: unknown } | undefined)?.code;
    if (code === ErrorCodes.PendingResponseRejected || code === ErrorCodes.ConnectionInactive) {
      this.deps.log(`request ended with the server: ${errorText(err)}`);
      return;
    }
    this.notice('error', errorText(err));
  }

  private unshown: { level: 'info' | 'warning' | 'error'; text: string; action?: string }[] = [];
  private webviewReady = false;

  /** Opens the MCP status view in the chat. */
  showMcp(): void {
    this.post({ type: 'showMcp' });
  }

  // ---- commands ----

  /** Opens a new chat; anything sent after this call goes to it. */
  newSession(): Promise<void> {
    return this.inOrder(async () => {
      const info = await this.deps.request('session/create', {});
      await this.switchTo(info.id);
    });
  }

  /** Runs `step` after every step queued before it (see `ordered`). */
  private inOrder<T>(step: () => Promise<T>): Promise<T> {
    const next = this.ordered.catch(() => undefined).then(step);
    this.ordered = next;
    return next;
  }

  async compact(): Promise<void> {
    if (!this.sessionId) return;
    await this.deps.request('chat/compact', { sessionId: this.sessionId });
  }

  /**
   * govibe.language changed: the pane's title follows, and the view is
   * sent a fresh snapshot carrying the new language's strings (the view
   * re-renders every string; no reload). The sidecar gets the setting with
   * settings/didChange.
   */
  languageChanged(): void {
    this.applyTitle();
    if (this.view && this.webviewReady) void this.sendSnapshot(this.sessionId);
  }

  private applyTitle(): void {
    const title = paneTitle(this.deps.extensionUri.fsPath, this.deps.locale(), 'view.chat');
    if (this.view && title) this.view.title = title;
  }

  focusInput(): void {
    this.post({ type: 'focusInput' });
  }

  dispose(): void {
    this.view = undefined;
  }

  // ---- webview → host ----

  private async onMessage(m: WebviewMessage): Promise<void> {
    const r = this.deps.request;
    if (isCompletionMessage(m)) return answerCompletion(m, r, (x) => this.post(x), this.sessionId, searchSymbols);
    switch (m.type) {
      case 'ready': {
        this.webviewReady = true;
        if (this.model) this.post({ type: 'model', status: this.model });
        for (const n of this.unshown.splice(0)) this.post({ type: 'notice', ...n });
        await this.sendSnapshot(m.sessionId ?? this.sessionId);
        return;
      }
      case 'send':
        return this.inOrder(async () => {
          let sessionId = m.sessionId ?? this.sessionId;
          if (!sessionId) {
            sessionId = (await r('session/create', {})).id;
            await this.switchTo(sessionId);
          }
          await r('chat/send', { sessionId, text: m.text, editor: editorContext(), ...(m.retryOf ? { retryOf: m.retryOf } : {}) });
        });
      case 'stop':
        await r('chat/cancel', { sessionId: m.sessionId });
        return;
      case 'resolve':
        if (this.deps.proposals.has(m.id)) return this.deps.proposals.resolveFromChat(m.id, m.decision, m.reason);
        await r('confirm/resolve', { id: m.id, decision: m.decision, reason: m.reason, command: m.command, answer: m.answer, alwaysAllow: m.alwaysAllow });
        return;
      case 'mcp':
        this.post(await mcpAction(r, this.deps.mcpInputs, m.action, m.name));
        return;
      case 'openDiff':
        return this.openDiff(m);
      case 'reviewAll':
        return this.deps.proposals.reviewAll(m.confirmIds);
      case 'setEditEnabled': {
        const enabled = m.enabled;
        // A new chat's toggle works too: the session is created, set, and
        // then shown, so its snapshot already carries the choice.
        return this.inOrder(async () => {
          const known = m.sessionId ?? this.sessionId;
          if (known) {
            await r('chat/setEditEnabled', { sessionId: known, enabled });
            return;
          }
          const sessionId = (await r('session/create', {})).id;
          await r('chat/setEditEnabled', { sessionId, enabled });
          await this.switchTo(sessionId);
        });
      }
      case 'newSession':
        return this.newSession();
      case 'switchSession':
        return this.inOrder(() => this.switchTo(m.sessionId));
      case 'listSessions':
        return this.refreshSessions();
      case 'renameSession':
        await r('session/rename', { sessionId: m.sessionId, title: m.title });
        return this.refreshSessions();
      case 'deleteSession': {
        await r('session/delete', { sessionId: m.sessionId });
        if (m.sessionId === this.sessionId) {
          const { sessions } = await r('session/list', {});
          return this.switchTo(sessions[0]?.id);
        }
        return this.refreshSessions();
      }
      case 'loadMore': {
        const result = await r('session/load', { sessionId: m.sessionId, beforeSeq: m.beforeSeq });
        this.post({ type: 'page', sessionId: m.sessionId, result });
        return;
      }
      case 'loadSubAgent': {
        const result = await r('session/load', { sessionId: m.childId, beforeSeq: m.beforeSeq, limit: 200 });
        this.post({ type: 'subAgentPage', sessionId: m.sessionId, childId: m.childId, beforeSeq: m.beforeSeq, result });
        return;
      }
      case 'searchSessions': {
        const query = m.query.trim();
        const { hits } = query ? await r('session/search', { query, limit: 30 }) : { hits: [] };
        this.post({ type: 'searchResults', query: m.query, hits });
        return;
      }
      case 'rollbackTurn':
        return this.deps.snapshots.rollbackTurn(m.sessionId, m.turnId);
      case 'todoControl':
        await r('todo/control', { sessionId: m.sessionId, action: m.action, index: m.index });
        return;
      case 'compact':
        await r('chat/compact', { sessionId: m.sessionId });
        return;
      case 'setMode': {
        const mode = m.mode;
        return this.inOrder(async () => {
          let sessionId = m.sessionId ?? this.sessionId;
          if (!sessionId) {
            sessionId = (await r('session/create', {})).id;
            await this.switchTo(sessionId);
          }
          await r('chat/setMode', { sessionId, mode });
        });
      }
      case 'runPlan':
        await r('chat/runPlan', { sessionId: m.sessionId, items: m.items });
        return;
      case 'reconcileApprove':
        await r('reconcile/approve', { sessionId: m.sessionId, manifest: m.manifest });
        return;
      case 'reconcileResume':
        await r('reconcile/resume', { sessionId: m.sessionId });
        return;
      case 'openLink':
        if (isExternalLink(m.href)) await vscode.env.openExternal(vscode.Uri.parse(m.href, true));
        else this.deps.log(`refused to open non-http link from the webview: ${m.href}`);
        return;
      case 'openImage':
        if (this.deps.storageDir && (isScreenshotPath(m.path, this.deps.storageDir) || isMcpImagePath(m.path, this.deps.storageDir))) {
          await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(m.path));
        } else this.deps.log(`refused to open an image outside the storage directory: ${m.path}`);
        return;
      case 'command':
        return this.runRemedy(m.command);
    }
  }

  private async openDiff(m: Extract<WebviewMessage, { type: 'openDiff' }>): Promise<void> {
    if (m.confirmId && this.deps.proposals.has(m.confirmId)) return this.deps.proposals.show(m.confirmId);
    if (m.before !== undefined && m.after !== undefined) {
      return this.deps.proposals.showTexts(m.path ?? 'file', m.before, m.after);
    }
    if (m.path) {
      const applied = this.deps.editor.lastApplied(m.path);
      if (applied) return this.deps.proposals.showTexts(applied.path, applied.before, applied.after);
      await vscode.window.showTextDocument(vscode.Uri.file(m.path));
    }
  }

  private async runRemedy(command: string): Promise<void> {
    if (command === 'pickModel') {
      const picked = await vscode.commands.executeCommand<string | undefined>('govibe.pickModel');
      // The open session switches too, even if /model chose another model
      // for it before: the newest choice wins.
      if (picked && this.sessionId) await this.deps.request('session/setModel', { sessionId: this.sessionId, model: picked });
      return;
    }
    if (command === 'continue') {
      if (this.sessionId) await this.deps.request('chat/send', { sessionId: this.sessionId, text: 'continue', editor: editorContext() });
      return;
    }
    if (isRemedy(command)) await vscode.commands.executeCommand(REMEDY_COMMANDS[command as keyof typeof REMEDY_COMMANDS], command === 'openSettings' ? 'govibe' : undefined);
  }

  private async offerRemedy(message: string, action: string | undefined): Promise<void> {
    const label: Record<string, string> = {
      setApiKey: vscode.l10n.t('Set API Key'),
      showLogs: vscode.l10n.t('Show Logs'),
      restartServer: vscode.l10n.t('Restart Server'),
      openSettings: vscode.l10n.t('Open Settings'),
      continue: vscode.l10n.t('Continue'),
    };
    const button = action && isRemedy(action) ? label[action] : undefined;
    const choice = await (button ? vscode.window.showErrorMessage(message, button) : vscode.window.showErrorMessage(message));
    if (choice && action) await this.runRemedy(action);
  }

  private async switchTo(sessionId: string | undefined): Promise<void> {
    await this.deps.state.update(SESSION_KEY, sessionId);
    await this.sendSnapshot(sessionId);
  }

  /** Loads `sessionId` (or the newest session) and posts it; then opens the buffer. */
  private async sendSnapshot(wanted: string | undefined): Promise<void> {
    if (!this.view) return;
    const pre = this.prefetched;
    this.prefetched = undefined;
    // The prefetch is used when no other load began after it and it is for
    // the session wanted now.
    const adopt =
      !!pre && pre.ticket === this.loading && Date.now() - pre.at < PREFETCH_MAX_AGE_MS && (pre.wanted === wanted || this.sessionId === wanted);
    const ticket = adopt ? pre.ticket : ++this.loading;
    const current = () => ticket === this.loading;
    this.buffer.hold();
    if (this.serverState === 'error' || this.serverState === 'stopped' || this.serverState === 'starting') {
      this.post({ ...this.emptySnapshot(), session: null, sessions: [] }, true);
      return;
    }
    const started = Date.now();
    try {
      const fetched = await (adopt ? pre.snapshot : this.fetchSnapshot(wanted, current));
      // A newer load (a send that created a session while this one waited
      // for the server, say) superseded this one: following the session this
      // stale list names would drop the newer session's live events.
      if (!fetched || !current()) return;
      const { sessions, sessionId, load } = fetched;
      await this.deps.state.update(SESSION_KEY, sessionId);
      this.post({ ...this.emptySnapshot(), session: load, sessions, editEnabled: load?.editEnabled ?? true }, true);
      // An open ask_human dialog's question is on screen too: its "ended"
      // may arrive while the snapshot was on its way.
      this.buffer.opened(sessionId, load?.lastSeq ?? 0, [...(load?.pending ?? []), ...(load?.dialogs ?? []).map((d) => d.question)]);
      for (const p of load?.pending ?? []) if (p.kind === ConfirmEdit) void this.deps.proposals.requested(p);
      this.deps.log(
        `snapshot posted: ${load?.messages?.length ?? 0} messages${adopt ? ' (fetched when the server got ready)' : ''}, ${Date.now() - started} ms after it was asked for, ${Date.now() - this.resolvedAt} ms after the view was resolved`,
      );
    } catch (err) {
      if (!current()) return;
      this.post({ ...this.emptySnapshot(), session: null, sessions: [] }, true);
      this.failed(err);
    }
  }

  /**
   * The session list and the first page of `wanted` (or of the newest
   * session), asked for together when `wanted` is known: one round trip,
   * not two. The buffer follows the session before its page is read, so
   * no event falls between the page and the live stream. Undefined when
   * `current` says a newer load began meanwhile: following the session
   * this stale list names would drop the newer session's live events.
   */
  private async fetchSnapshot(wanted: string | undefined, current: () => boolean): Promise<Fetched | undefined> {
    const r = this.deps.request;
    const page = (sessionId: string) => r('session/load', { sessionId, limit: FIRST_PAGE });
    if (wanted) this.buffer.follow(wanted);
    // Settled either way: a session deleted meanwhile fails its load, and
    // the newest is shown instead.
    const early = wanted
      ? page(wanted).then(
          (load) => ({ load }),
          (err: unknown) => ({ err }),
        )
      : undefined;
    const { sessions } = await r('session/list', {});
    if (!current()) return undefined;
    if (early && sessions.some((s) => s.id === wanted)) {
      const got = await early;
      if ('err' in got) throw got.err;
      return { sessions, sessionId: wanted, load: got.load };
    }
    const sessionId = sessions[0]?.id;
    this.buffer.follow(sessionId);
    return { sessions, sessionId, load: sessionId ? await page(sessionId) : null };
  }

  private emptySnapshot(): Extract<HostMessage, { type: 'snapshot' }> {
    return {
      type: 'snapshot',
      session: null,
      sessions: [],
      l10n: webviewBundle(this.deps.extensionUri.fsPath, this.deps.locale()),
      locale: this.deps.locale(),
      serverState: this.effectiveState(),
      editEnabled: true,
      workspace: vscode.workspace.name,
      screenshots: this.screenshots,
      mcpImages: this.mcpImages,
    };
  }

  private async refreshSessions(): Promise<void> {
    try {
      const { sessions } = await this.deps.request('session/list', {});
      this.post({ type: 'sessions', sessions });
    } catch (err) {
      this.deps.log(`session/list: ${errorText(err)}`);
    }
  }

  private effectiveState(): ServerState {
    return this.serverState === 'ready' && this.running.size > 0 ? 'busy' : this.serverState;
  }

  private publishState(): void {
    const state = this.effectiveState();
    for (const l of this.stateListeners) l(state, this.serverDetail);
    this.post({ type: 'serverState', state, detail: this.serverDetail });
  }

  /** Posts to the webview; transcript messages only once it rendered a snapshot. */
  private post(m: HostMessage, force = false): void {
    if (!this.view) return;
    if (!force && !this.buffer.isOpen && (m.type === 'event' || m.type === 'confirm' || m.type === 'confirmClosed')) return;
    void this.view.webview.postMessage(m);
  }
}

/**
 * What the page's composer shows before the script runs: the draft the
 * view saved (its state, which VS Code hands back on a reload) and the
 * composer's placeholder and label, translated by the webview's bundle.
 */
export function bootText(state: unknown, bundle: Record<string, string> | undefined): BootText {
  const draft = state && typeof state === 'object' ? (state as { draft?: unknown }).draft : undefined;
  return {
    draft: typeof draft === 'string' ? draft : '',
    placeholder: bundle?.[BOOT_PLACEHOLDER] ?? BOOT_PLACEHOLDER,
    label: bundle?.[BOOT_LABEL] ?? BOOT_LABEL,
  };
}

/** Bundles read, by file: they ship with the extension and do not change while it runs. */
const bundles = new Map<string, Record<string, string> | undefined>();

/**
 * The webview's own l10n bundle for `locale`, if it ships one: read once,
 * not again for each snapshot and for the page's composer.
 */
export function webviewBundle(extensionDir: string, locale: string): Record<string, string> | undefined {
  if (locale === 'en' || locale.startsWith('en-')) return undefined;
  const file = path.join(extensionDir, 'extension', 'webview', 'l10n', `bundle.l10n.${locale.toLowerCase()}.json`);
  if (!bundles.has(file)) {
    let b: Record<string, string> | undefined;
    try {
      b = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      b = undefined;
    }
    bundles.set(file, b);
  }
  return bundles.get(file);
}

function editorContext(): EditorContext | undefined {
  const ed = vscode.window.activeTextEditor;
  if (!ed || ed.document.uri.scheme !== 'file') return undefined;
  const sel = ed.selection.isEmpty ? undefined : ed.document.getText(ed.selection);
  return { activeFile: ed.document.uri.fsPath, selection: sel, language: ed.document.languageId };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** @#symbol autocomplete: VS Code's workspace symbol provider (whatever
 * language extensions supply it); the sidecar resolves the pick itself. */
const searchSymbols: SymbolSearch = async (query) => {
  const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query);
  return (found ?? []).map((s) => ({ name: s.name, container: s.containerName || undefined, path: vscode.workspace.asRelativePath(s.location.uri) }));
};
