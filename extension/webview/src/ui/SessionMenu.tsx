// The chat history: sessions by title (from the first message), newest
// first, each with a relative time; the search box filters titles at once
// and asks the sidecar's full-text search for messages that match.
import * as l10n from '@vscode/l10n';
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionInfo } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { relativeTime } from '../format';
import { snippetText } from '../markdown';
import { useDismiss } from './dismiss';

/** Full-text search waits for a pause in typing. */
const SEARCH_DEBOUNCE_MS = 200;

interface MenuProps {
  sessions: SessionInfo[];
  currentId?: string;
  onClose: () => void;
  /** The history button, which toggles the menu itself. */
  toggleRef?: RefObject<HTMLButtonElement | null>;
}

export function SessionMenu({ sessions, currentId, onClose, toggleRef }: MenuProps) {
  const { bridge, store } = useServices();
  const { workspace, locale, search: found } = store.state;
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  useDismiss(true, onClose, box, ...(toggleRef ? [toggleRef] : []));
  useEffect(() => search.current?.focus(), []);
  useEffect(() => {
    if (!query.trim()) return;
    const t = setTimeout(() => bridge.post({ type: 'searchSessions', query }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query]);
  const q = query.trim().toLowerCase();
  // Snippets of full-text hits for the query on screen (a stale answer is ignored).
  const snippets = new Map<string, string>();
  if (q && found && found.query.trim().toLowerCase() === q) {
    for (const hit of found.hits) if (!snippets.has(hit.sessionId)) snippets.set(hit.sessionId, hit.snippet);
  }
  // A chat with nothing in it yet (the New chat just opened: no message,
  // no title) is not history.
  const chats = sessions.filter((s) => s.messageCount > 0 || s.title || s.running);
  const shown = q ? chats.filter((s) => s.title.toLowerCase().includes(q) || snippets.has(s.id)) : chats;
  return (
    <div ref={box} class="session-menu" data-testid="session-list">
      <input
        ref={search}
        class="text-input"
        data-testid="session-search"
        placeholder={l10n.t('Search chats')}
        value={query}
        onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)}
      />
      {workspace && (
        <div class="muted session-workspace" data-testid="session-workspace">
          <span class="codicon codicon-folder" /> {l10n.t('Chats in {0}', workspace)}
        </div>
      )}
      {shown.length === 0 && <div class="muted session-empty">{q ? l10n.t('No chats match.') : l10n.t('No chats yet.')}</div>}
      <ul>
        {shown.map((s) => (
          <li key={s.id} class={`session-item${s.id === currentId ? ' current' : ''}`} data-testid="session-item" data-model={s.model}>
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
                  {/* The title has the row's width, on up to two lines; when
                      and what matched go under it. */}
                  <span class="session-text">
                    <span class="session-name" data-testid="session-name" title={s.title || undefined}>
                      {s.title || l10n.t('New chat')}
                    </span>
                    <span class="muted session-when" data-testid="session-when" title={s.model ? `${new Date(s.updated).toLocaleString(locale)} · ${s.model}` : new Date(s.updated).toLocaleString(locale)}>
                      {relativeTime(s.updated, locale)}
                    </span>
                    {snippets.has(s.id) && (
                      <span class="session-snippet muted" data-testid="session-snippet">
                        {snippetText(snippets.get(s.id)!)}
                      </span>
                    )}
                  </span>
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
