// The contract between the extension host and the chat webview. The host
// owns the transcript (it fetches it from the sidecar); the webview keeps
// only UI state. Both sides import this file; keep it free of runtime code
// except plain constants so it bundles into either side.
import type {
  ChatEvent,
  CommandInfo,
  FileCompletion,
  SkillInfo,
  ConfirmRequest,
  ConfirmClosed,
  MCPStatusResult,
  SessionLoadResult,
  SessionInfo,
  SessionSearchHit,
  SnapshotInfo,
} from '../src/protocol.gen';

/** Host → webview. */
export type HostMessage =
  // Full state after the webview posts `ready` or the session switches.
  | {
      type: 'snapshot';
      session: SessionLoadResult | null;
      sessions: SessionInfo[];
      l10n: Record<string, string> | undefined; // @vscode/l10n bundle contents
      locale: string;
      serverState: ServerState;
      editEnabled: boolean;
      /** The workspace the listed sessions belong to (the store is per workspace). */
      workspace?: string;
      /** Where browser screenshots may be shown inline from (none: buttons only). */
      screenshots?: ScreenshotRoot;
      /** Where MCP tool images may be shown inline from (none: buttons only). */
      mcpImages?: ScreenshotRoot;
    }
  // Older messages for the virtualised list (answer to `loadMore`).
  | { type: 'page'; sessionId: string; result: SessionLoadResult }
  // Older messages of a sub-agent run (answer to `loadSubAgent`).
  | { type: 'subAgentPage'; sessionId: string; childId: string; beforeSeq: number; result: SessionLoadResult }
  // Live deltas, in seq order; the webview drops seq <= the last applied.
  | { type: 'event'; event: ChatEvent }
  | { type: 'confirm'; request: ConfirmRequest }
  | { type: 'confirmClosed'; closed: ConfirmClosed }
  | { type: 'sessions'; sessions: SessionInfo[] }
  | { type: 'serverState'; state: ServerState; detail?: string }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string; action?: string }
  // The notices carrying this action no longer hold (trust was granted).
  | { type: 'withdrawNotices'; action: string }
  | { type: 'snapshotCreated'; snapshot: SnapshotInfo }
  // The active model, its key and endpoint status (header).
  | { type: 'model'; status: ModelStatus }
  | { type: 'focusInput' }
  // Full-text search hits over every session (answer to `searchSessions`).
  | { type: 'searchResults'; query: string; hits: SessionSearchHit[] }
  // Slash-command autocomplete (answer to `listCommands`).
  | { type: 'commands'; reqId: number; commands: CommandInfo[] }
  // @-mention file autocomplete (answer to `completeFiles`).
  | { type: 'files'; reqId: number; items: FileCompletion[]; partial: boolean }
  // The skill catalog with the session's active skills (answer to
  // `listSkills` and `setSkillActive`).
  | { type: 'skills'; skills: SkillInfo[]; error?: string }
  // The MCP status view (answer to `mcp`); error when the sidecar refused.
  | { type: 'mcp'; status?: MCPStatusResult; error?: string }
  // Opens the MCP status view (GoVibe: MCP Servers).
  | { type: 'showMcp' };

/**
 * The browser sub-agent's screenshot folder (the sidecar's storage
 * directory's browser/) and the webview URI it is served under: the
 * webview may load only it (localResourceRoots), and shows a screenshot
 * inline only when its path lies inside dir (webview/src/screenshots.ts).
 */
/*
 * The same shape names the MCP image folder (storage's mcp-images/,
 * webview/src/mcpImages.ts), where the sidecar keeps the images MCP tools
 * return, one file per image named by its SHA-256.
 */
export interface ScreenshotRoot {
  dir: string;
  base: string;
}

/** What the header shows about the model; see src/host/modelStatus.ts. */
export interface ModelStatus {
  label: string;
  model: string;
  baseUrl: string;
  key: 'set' | 'missing' | 'notNeeded';
  profiles: string[];
  /**
   * unreachable is a guess from one probe: a model that answers proves it
   * wrong, and the host then clears it.
   */
  problem?: { text: string; action: 'setApiKey' | 'openSettings'; unreachable?: boolean };
}

export type ServerState = 'starting' | 'ready' | 'busy' | 'error' | 'stopped';

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready'; lastSeq?: number; sessionId?: string }
  /** retryOf: the failed turn a Retry replaces (chat/send's retryOf). */
  | { type: 'send'; text: string; sessionId?: string; retryOf?: string }
  | { type: 'stop'; sessionId: string }
  | {
      type: 'resolve';
      id: string;
      decision: 'accept' | 'reject';
      reason?: string;
      command?: string;
      answer?: string;
      /** Writes the card's allowRules as user allow rules. */
      alwaysAllow?: boolean;
    }
  | { type: 'openDiff'; confirmId?: string; path?: string; before?: string; after?: string }
  | { type: 'reviewAll'; confirmIds: string[] }
  /** Without a session (a new chat), the host creates one first. */
  | { type: 'setEditEnabled'; sessionId?: string; enabled: boolean }
  | { type: 'newSession' }
  | { type: 'switchSession'; sessionId: string }
  // The history dropdown opened: the host answers with `sessions`, read
  // again (another window on the workspace may have added chats).
  | { type: 'listSessions' }
  | { type: 'renameSession'; sessionId: string; title: string }
  | { type: 'deleteSession'; sessionId: string }
  | { type: 'loadMore'; sessionId: string; beforeSeq: number }
  // "N earlier messages hidden — show" in a reopened sub-agent run: its child session's older page.
  | { type: 'loadSubAgent'; sessionId: string; childId: string; beforeSeq: number }
  | { type: 'searchSessions'; query: string }
  | { type: 'rollbackTurn'; sessionId: string; turnId: string }
  | { type: 'todoControl'; sessionId: string; action: 'stop' | 'skip' | 'retry' | 'resume'; index?: number }
  | { type: 'compact'; sessionId: string }
  /** Without a session (before the first message) the host creates one. */
  | { type: 'setMode'; sessionId?: string; mode: string }
  /** Plan mode's "Run plan", with the proposed items as the user edited them. */
  | { type: 'runPlan'; sessionId: string; items: { title: string; description?: string; acceptance?: string }[] }
  /** Reconcile: approve the drafted manifest (manifest = the edited JSON) and start the loop. */
  | { type: 'reconcileApprove'; sessionId: string; manifest?: string }
  | { type: 'reconcileResume'; sessionId: string }
  | { type: 'openLink'; href: string }
  /** A browser_sub_agent screenshot (a PNG under the storage directory). */
  | { type: 'openImage'; path: string }
  | { type: 'listCommands'; reqId: number }
  | { type: 'completeFiles'; reqId: number; query: string }
  | { type: 'listSkills'; sessionId?: string }
  | { type: 'setSkillActive'; sessionId?: string; name: string; active: boolean }
  /** The MCP status view: refresh (connect starts idle servers), restart, enable or disable a server. */
  | { type: 'mcp'; action: 'status' | 'connect' | 'restart' | 'enable' | 'disable' | 'inputs'; name?: string }
  | {
      type: 'command';
      command: 'setApiKey' | 'showLogs' | 'restartServer' | 'openSettings' | 'continue' | 'pickModel' | 'trustWorkspace' | 'alwaysAllowedRules';
    };
