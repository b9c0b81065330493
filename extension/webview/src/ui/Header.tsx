import * as l10n from '@vscode/l10n';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ContextUse, SessionInfo } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { formatCost, formatTokens } from '../format';

interface Props {
  session?: SessionInfo;
  sessions: SessionInfo[];
  context?: ContextUse;
  running: boolean;
}

export function Header({ session, sessions, context, running }: Props) {
  const { bridge } = useServices();
  const [open, setOpen] = useState(false);
  return (
    <header class="header">
      <button
        type="button"
        class="session-toggle"
        data-testid="session-menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        title={l10n.t('Chat history')}
      >
        <span class="codicon codicon-history" />
        <span class="session-title">{session?.title || l10n.t('New chat')}</span>
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
      {context && <ContextBar context={context} sessionId={session?.id} running={running} />}
      {open && <SessionMenu sessions={sessions} currentId={session?.id} onClose={() => setOpen(false)} />}
    </header>
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

export function contextTooltip(c: ContextUse): string {
  const pct = c.windowTokens > 0 ? Math.round((100 * c.usedTokens) / c.windowTokens) : 0;
  const u = c.sessionUsage;
  return [
    l10n.t('Context: {0} of {1} tokens ({2}%)', formatTokens(c.usedTokens), formatTokens(c.windowTokens), pct),
    l10n.t('Session input: {0} tokens ({1} cached)', formatTokens(u.promptTokens), formatTokens(u.cachedTokens)),
    l10n.t('Session output: {0} tokens', formatTokens(u.completionTokens)),
    l10n.t('Session cost: {0}', formatCost(c.sessionCost)),
  ].join('\n');
}

function ContextBar({ context, sessionId, running }: { context: ContextUse; sessionId?: string; running: boolean }) {
  const { bridge } = useServices();
  const frac = context.windowTokens > 0 ? Math.min(1, context.usedTokens / context.windowTokens) : 0;
  const level = frac > 0.9 ? 'high' : frac > 0.7 ? 'mid' : 'low';
  return (
    <div class="context" data-testid="context-bar" title={contextTooltip(context)}>
      <div class={`context-meter ${level}`} role="meter" aria-valuenow={Math.round(frac * 100)} aria-valuemin={0} aria-valuemax={100}>
        <div class="context-fill" style={{ width: `${(frac * 100).toFixed(1)}%` }} />
      </div>
      <span class="context-cost" data-testid="session-cost">
        {formatCost(context.sessionCost)}
      </span>
      {sessionId && (
        <button
          type="button"
          class="icon-btn"
          data-testid="compact"
          disabled={running}
          title={l10n.t('Summarise earlier messages to free up context')}
          onClick={() => bridge.post({ type: 'compact', sessionId })}
        >
          <span class="codicon codicon-fold" />
        </button>
      )}
    </div>
  );
}
