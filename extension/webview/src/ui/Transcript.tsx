import * as l10n from '@vscode/l10n';
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import type { TodoState } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { type ViewMessage, toolCount } from '../model';
import { EmptyState } from './EmptyState';
import { MessageView, lastTurnId } from './MessageView';
import { VirtualList } from './VirtualList';

type Row =
  | { type: 'msg'; key: string; msg: ViewMessage; grouped: boolean }
  | { type: 'group'; key: string; tag: string; count: number; tools: number; open: boolean };

interface Props {
  messages: ViewMessage[];
  sessionId?: string;
  running: boolean;
  todo?: TodoState;
  hasMore: boolean;
  loadingMore: boolean;
  /** Bumped by each send: the list scrolls to the new turn. */
  sendTick: number;
}

/**
 * Sub-agent tags look like "executor:2": the agent and its todo item,
 * counted from 1. Reconcile mode's agents ("coder:3") count loops.
 */
export function groupLabel(tag: string, tools: number, todo?: TodoState): string {
  const m = /^([\w-]+):(\d+)$/.exec(tag);
  const toolText = tools === 1 ? l10n.t('1 tool call') : l10n.t('{0} tool calls', tools);
  if (!m) return `${tag} · ${toolText}`;
  const n = Number(m[2]);
  if (m[1] === 'specifier' || m[1] === 'coder') return `${l10n.t('Loop {0}', n)} · ${m[1]} · ${toolText}`;
  const item = todo && todo.items.length > 0 ? l10n.t('Item {0}/{1}', n, todo.items.length) : l10n.t('Item {0}', n);
  return `${item} · ${m[1]} · ${toolText}`;
}

function isGrouped(m: ViewMessage): boolean {
  return !!m.subAgentTag && m.subAgentTag !== 'free';
}

export function buildRows(messages: ViewMessage[], open: (key: string, dflt: boolean) => boolean, running: boolean): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i];
    if (!isGrouped(m)) {
      rows.push({ type: 'msg', key: m.id, msg: m, grouped: false });
      i++;
      continue;
    }
    const tag = m.subAgentTag!;
    let j = i;
    let tools = 0;
    while (j < messages.length && messages[j].subAgentTag === tag) tools += toolCount(messages[j++]);
    const key = `group:${m.groupKey ?? m.id}`;
    // The group still being written stays open; finished ones fold away.
    const isOpen = open(key, running && j === messages.length);
    rows.push({ type: 'group', key, tag, count: j - i, tools, open: isOpen });
    if (isOpen) for (let k = i; k < j; k++) rows.push({ type: 'msg', key: messages[k].id, msg: messages[k], grouped: true });
    i = j;
  }
  return rows;
}

function estimate(r: Row): number {
  if (r.type === 'group') return 28;
  let h = 24;
  for (const b of r.msg.blocks) {
    if (b.kind === 'text') h += 20 * Math.max(1, Math.ceil(b.text.length / 70));
    else h += 32;
  }
  return Math.min(h, 2000);
}

/** How long "Loading earlier messages…" waits for its page before giving up. */
const LOAD_MORE_GIVE_UP_MS = 15_000;

export function Transcript(props: Props) {
  const { bridge, store } = useServices();
  const [openMap, setOpenMap] = useState<Record<string, boolean>>(() => ({ ...bridge.ui.open }));
  const askedFor = useRef<number | null>(null);
  // A saved position belongs to the session it was saved in: a reload puts
  // it back, while a session opened from the history starts at its end.
  const [initial] = useState(() =>
    bridge.ui.scrollSession === props.sessionId ? { top: bridge.ui.scrollTop, atBottom: bridge.ui.atBottom } : { top: 0, atBottom: true },
  );
  const [atBottom, setAtBottom] = useState(initial.atBottom);
  const [jumps, setJumps] = useState(0);

  const rows = useMemo(
    () => buildRows(props.messages, (k, d) => openMap[k] ?? d, props.running),
    [props.messages, openMap, props.running],
  );

  // Only the latest turn's error offers Retry (it replaces that attempt).
  const lastTurn = useMemo(() => lastTurnId(props.messages), [props.messages]);

  const toggle = (key: string, v: boolean) => {
    setOpenMap((m) => ({ ...m, [key]: v }));
    bridge.setOpen(key, v);
  };

  const onNearTop = useCallback(() => {
    const first = props.messages.find((m) => m.seq >= 0);
    if (!props.hasMore || props.loadingMore || !props.sessionId || !first) return;
    if (askedFor.current === first.seq) return;
    askedFor.current = first.seq;
    // "Loading earlier messages…" shows until the page comes; a page that
    // never comes (the request failed) lets the next wheel ask again.
    store.setLoadingMore(true);
    const seq = first.seq;
    setTimeout(() => {
      if (askedFor.current !== seq || !store.state.loadingMore) return;
      askedFor.current = null;
      store.setLoadingMore(false);
    }, LOAD_MORE_GIVE_UP_MS);
    bridge.post({ type: 'loadMore', sessionId: props.sessionId, beforeSeq: first.seq });
  }, [props.messages, props.hasMore, props.loadingMore, props.sessionId]);

  const renderRow = (r: Row) => {
    if (r.type === 'group') {
      return (
        <button
          type="button"
          class="group-header"
          data-testid="subagent-group"
          aria-expanded={r.open}
          onClick={() => toggle(r.key, !r.open)}
        >
          <span class={`codicon ${r.open ? 'codicon-chevron-down' : 'codicon-chevron-right'}`} />
          {groupLabel(r.tag, r.tools, props.todo)}
        </button>
      );
    }
    const more = r.msg.more;
    return (
      <div class={r.grouped ? 'grouped' : undefined}>
        {more && props.sessionId && (
          <button
            type="button"
            class="earlier-steps"
            data-testid="subagent-earlier"
            onClick={() => bridge.post({ type: 'loadSubAgent', sessionId: props.sessionId!, childId: more.childId, beforeSeq: more.beforeSeq })}
          >
            <span class="codicon codicon-fold-up" />
            {more.earlier === 1 ? l10n.t('1 earlier message hidden — show') : l10n.t('{0} earlier messages hidden — show', more.earlier)}
          </button>
        )}
        <MessageView msg={r.msg} sessionId={props.sessionId} canRollback={!props.running} retryable={!!r.msg.turnId && r.msg.turnId === lastTurn} />
      </div>
    );
  };

  if (props.messages.length === 0) return <EmptyState />;
  return (
    <>
      {props.loadingMore && <div class="loading-more">{l10n.t('Loading earlier messages…')}</div>}
      <VirtualList
        items={rows}
        itemKey={rowKey}
        estimate={estimate}
        renderItem={renderRow}
        onNearTop={onNearTop}
        initialScrollTop={initial.top}
        initialAtBottom={initial.atBottom}
        pinTick={props.sendTick + jumps}
        onScrollState={(scrollTop, bottom) => {
          bridge.update({ scrollTop, atBottom: bottom, scrollSession: props.sessionId });
          setAtBottom(bottom);
        }}
      />
      {!atBottom && (
        <button type="button" class="jump-latest" data-testid="jump-latest" onClick={() => setJumps((n) => n + 1)}>
          <span class="codicon codicon-arrow-down" /> {l10n.t('Jump to latest')}
        </button>
      )}
    </>
  );
}

function rowKey(r: Row): string {
  return r.key;
}
