import * as l10n from '@vscode/l10n';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ModelStatus } from '../../../shared/webviewMessages';
import type { ContextUse, SessionInfo } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { ModelBar, ModelProblem } from './ModelBar';

interface Props {
  session?: SessionInfo;
  sessions: SessionInfo[];
  context?: ContextUse;
  running: boolean;
  model?: ModelStatus;
}

/** Two rows: the session (title, history, new chat), then the model and the context meter. */
export function Header({ session, sessions, context, running, model }: Props) {
  return (
    <>
      <header class="header">
        <SessionRow session={session} sessions={sessions} />
        <ModelBar model={model} context={context} sessionId={session?.id} running={running} />
      </header>
      <ModelProblem model={model} />
    </>
  );
}

function SessionRow({ session, sessions }: { session?: SessionInfo; sessions: SessionInfo[] }) {
  const { bridge } = useServices();
  const [open, setOpen] = useState(false);
  const title = session?.title || l10n.t('New chat');
  return (
    <div class="session-row">
      <button
        type="button"
        class="session-toggle"
        data-testid="session-menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={l10n.t('Chat history')}
      >
        <span class="codicon codicon-history" />
        <span class="session-title" data-testid="session-title" title={title}>
          {title}
        </span>
        <span class={`codicon ${open ? 'codicon-chevron-up' : 'codicon-chevron-down'}`} />
      </button>
      <button
        type="button"
        class="icon-btn"
        data-testid="new-session"
        title={l10n.t('New chat')}
        onClick={() => {
          setOpen(false);
          bridge.post({ type: 'newSession' });
        }}
      >
        <span class="codicon codicon-add" />
      </button>
      {open && <SessionMenu sessions={sessions} currentId={session?.id} onClose={() => setOpen(false)} />}
    </div>
  );
}

function SessionMenu({ sessions, currentId, onClose }: { sessions: SessionInfo[]; currentId?: string; onClose: () => void }) {
  const { bridge } = useServices();
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => search.current?.focus(), []);
  const q = query.trim().toLowerCase();
  const shown = q ? sessions.filter((s) => s.title.toLowerCase().includes(q)) : sessions;
  return (
    <div
      class="session-menu"
      data-testid="session-list"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <input
        ref={search}
        class="text-input"
        data-testid="session-search"
        placeholder={l10n.t('Search chats')}
        value={query}
        onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
      />
      {shown.length === 0 && <div class="muted session-empty">{q ? l10n.t('No chats match.') : l10n.t('No chats yet.')}</div>}
      <ul>
        {shown.map((s) => (
          <li key={s.id} class={`session-item${s.id === currentId ? ' current' : ''}`} data-testid="session-item">
            {renaming === s.id ? (
              <RenameField
                title={s.title}
                onDone={(title) => {
                  setRenaming(null);
                  if (title !== null && title.trim() && title.trim() !== s.title) {
                    bridge.post({ type: 'renameSession', sessionId: s.id, title: title.trim() });
                  }
                }}
              />
            ) : deleting === s.id ? (
              <span class="confirm-inline">
                {l10n.t('Delete “{0}”?', s.title || l10n.t('New chat'))}
                <button
                  type="button"
                  class="link-btn danger"
                  data-testid="session-delete-confirm"
                  onClick={() => {
                    setDeleting(null);
                    bridge.post({ type: 'deleteSession', sessionId: s.id });
                  }}
                >
                  {l10n.t('Delete')}
                </button>
                <button type="button" class="link-btn" onClick={() => setDeleting(null)}>
                  {l10n.t('Cancel')}
                </button>
              </span>
            ) : (
              <>
                <button
                  type="button"
                  class="session-pick"
                  onClick={() => {
                    onClose();
                    if (s.id !== currentId) bridge.post({ type: 'switchSession', sessionId: s.id });
                  }}
                >
                  {s.running && <span class="codicon codicon-loading codicon-modifier-spin" />}
                  <span class="session-name">{s.title || l10n.t('New chat')}</span>
                  <span class="muted">{new Date(s.updated).toLocaleDateString()}</span>
                </button>
                <button type="button" class="icon-btn" data-testid="session-rename" title={l10n.t('Rename')} onClick={() => setRenaming(s.id)}>
                  <span class="codicon codicon-edit" />
                </button>
                <button type="button" class="icon-btn" data-testid="session-delete" title={l10n.t('Delete')} onClick={() => setDeleting(s.id)}>
                  <span class="codicon codicon-trash" />
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function RenameField({ title, onDone }: { title: string; onDone: (t: string | null) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  // Enter and the blur that may follow it must rename only once.
  const finished = useRef(false);
  const finish = (t: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(t);
  };
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  return (
    <input
      ref={ref}
      class="text-input"
      data-testid="session-rename-input"
      value={title}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish((e.currentTarget as HTMLInputElement).value);
        else if (e.key === 'Escape') finish(null);
      }}
      onBlur={(e) => finish((e.currentTarget as HTMLInputElement).value)}
    />
  );
}
