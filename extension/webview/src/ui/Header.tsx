import * as l10n from '@vscode/l10n';
import { useRef, useState } from 'preact/hooks';
import type { ModelStatus } from '../../../shared/webviewMessages';
import type { ContextUse, SessionInfo } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { ModelBar, ModelProblem } from './ModelBar';
import { ModePicker } from './ModePicker';
import { SessionMenu } from './SessionMenu';

interface Props {
  session?: SessionInfo;
  sessions: SessionInfo[];
  context?: ContextUse;
  running: boolean;
  model?: ModelStatus;
  mode?: string;
  /** The chat's last turn ended on an error card saying it: no banner repeats it. */
  problemInChat?: boolean;
  /** The chat has messages: its context figures (and Compact) mean something. */
  measured?: boolean;
}

/**
 * Two rows, never more at the default sidebar width (~300 px): the
 * session (history and title, then new chat, compact and MCP as icons),
 * then how it works: the mode, the model and the context figures, on one
 * line that does not wrap (the model's name gives way last, whole on
 * hover). The title has its row to itself but for three icons, so it is
 * cut short only when it really is long.
 */
export function Header({ session, sessions, context, running, model, mode, problemInChat, measured = true }: Props) {
  return (
    <>
      <header class="header">
        <SessionRow
          session={session}
          sessions={sessions}
          running={running}
          canCompact={!!context && measured}
          compactDue={!!context && context.windowTokens > 0 && context.usedTokens / context.windowTokens >= COMPACT_LABEL_AT}
        />
        <ModelBar model={model} context={context} meter={measured}>
          <ModePicker sessionId={session?.id} mode={mode} running={running} />
        </ModelBar>
      </header>
      {!problemInChat && <ModelProblem model={model} />}
    </>
  );
}

/** From this share of the window used, Compact is named in words beside its icon. */
const COMPACT_LABEL_AT = 0.5;

function SessionRow({
  session,
  sessions,
  running,
  canCompact,
  compactDue,
}: {
  session?: SessionInfo;
  sessions: SessionInfo[];
  running: boolean;
  canCompact: boolean;
  /** The context is filling up: Compact says its name, not only its icon. */
  compactDue: boolean;
}) {
  const { bridge, store } = useServices();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const title = session?.title || l10n.t('New chat');
  return (
    <div class="session-row">
      <button
        ref={toggle}
        type="button"
        class="session-toggle"
        data-testid="session-menu"
        aria-expanded={open}
        onClick={() => {
          // The list is read again on every opening: another window on
          // the workspace shares this history and may have added chats.
          if (!open) bridge.post({ type: 'listSessions' });
          setOpen(!open);
        }}
        title={l10n.t('Chat history')}
      >
        {/* The history icon is the menu's affordance (aria-expanded says whether it is open): no chevron, so the title keeps the room. */}
        <span class="codicon codicon-history" />
        <span class="session-title" data-testid="session-title" title={title}>
          {title}
        </span>
      </button>
      <button
        type="button"
        class="icon-btn"
        data-testid="new-session"
        title={l10n.t('New chat')}
        onClick={() => {
          setOpen(false);
          store.startNewChat();
          bridge.post({ type: 'newSession' });
        }}
      >
        <span class="codicon codicon-add" />
      </button>
      {session && canCompact && (
        // The fold icon read as a grey "×" beside "+", i.e. "close chat":
        // Compact's icon draws arrows closing in (shrink), it is named for
        // screen readers and on hover, and once the context is half full,
        // when compacting is worth it, in words too. (Always in words, the
        // label took the room a short title needs.)
        <button
          type="button"
          class="icon-btn compact-btn"
          data-testid="compact"
          disabled={running}
          aria-label={l10n.t('Compact')}
          title={l10n.t('Compact: summarise earlier messages to free up context')}
          onClick={() => bridge.post({ type: 'compact', sessionId: session.id })}
        >
          <span class="codicon codicon-screen-normal" aria-hidden="true" />
          {compactDue && <span class="compact-label">{l10n.t('Compact')}</span>}
        </button>
      )}
      <button
        type="button"
        class="icon-btn"
        data-testid="mcp-open"
        title={l10n.t('MCP servers')}
        aria-pressed={store.state.mcpOpen}
        onClick={() => store.setMcpOpen(!store.state.mcpOpen)}
      >
        <span class="codicon codicon-server" />
      </button>
      {open && <SessionMenu sessions={sessions} currentId={session?.id} onClose={() => setOpen(false)} toggleRef={toggle} />}
    </div>
  );
}
