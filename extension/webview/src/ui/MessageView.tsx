import * as l10n from '@vscode/l10n';
import { useState } from 'preact/hooks';
import { actionLabel, actionMessage } from '../actions';
import { useServices } from '../context';
import { costKnown, formatCacheHit, formatCost, formatTokens, missText } from '../format';
import type { Block, ViewMessage } from '../model';
import { memo } from '../memo';
import type { ErrorInfo, HookRun, Usage } from '../../../src/protocol.gen';
import { CompactionNotice } from './CompactionNotice';
import { Markdown } from './Markdown';
import { ReviewView } from './Review';
import { ToolCard } from './ToolCard';
import { UserExtras } from './UserExtras';

interface Props {
  msg: ViewMessage;
  sessionId?: string;
  /** Whether this user message's turn may be rolled back (not while running). */
  canRollback: boolean;
  /** The message belongs to the latest turn: its error offers Retry. */
  retryable?: boolean;
}

export const MessageView = memo(function MessageView({ msg, sessionId, canRollback, retryable }: Props) {
  if (msg.role === 'user' && msg.origin && msg.origin !== 'control') return <EngineLine msg={msg} />;
  if (msg.role === 'user') return <UserMessage msg={msg} sessionId={sessionId} canRollback={canRollback} />;
  const streaming = msg.status === 'pending';
  const testid = msg.role === 'event' ? 'message-event' : 'message-assistant';
  return (
    <div
      class={`message message-${msg.role}${msg.btw ? ' btw' : ''}${streaming ? ' streaming' : ''}`}
      data-testid={testid}
      data-id={msg.id}
    >
      {msg.btw && <SideNoteLabel />}
      {msg.blocks.map((b, i) => (
        <BlockView key={i} block={b} msg={msg} index={i} streaming={streaming && i === msg.blocks.length - 1} sessionId={sessionId} retryable={!!retryable} />
      ))}
      {streaming && msg.blocks.length === 0 && (
        <div class="working">
          <span class="codicon codicon-loading codicon-modifier-spin" /> {l10n.t('Working…')}
        </div>
      )}
      {!streaming && msg.role === 'assistant' && msg.usage && <UsageLine usage={msg.usage} />}
    </div>
  );
});

/**
 * The request's cache hit and cost under the answer (tokens only without
 * prices); hovering names why the cache missed.
 */
function UsageLine({ usage }: { usage: Usage }) {
  const cost = costKnown(usage) ? formatCost(usage.cost) : l10n.t('{0} tokens', formatTokens(usage.promptTokens + usage.completionTokens));
  const title = [
    l10n.t('Prompt: {0} tokens, {1} cached', formatTokens(usage.promptTokens), formatTokens(usage.cachedTokens)),
    usage.cacheMiss ? missText(usage.cacheMiss) : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <div class={`usage-line${usage.cacheMiss ? ' missed' : ''}`} data-testid="usage-line" data-miss={usage.cacheMiss?.cause} title={title}>
      {l10n.t('cache {0} · {1}', formatCacheHit(usage), cost)}
    </div>
  );
}

function SideNoteLabel() {
  return (
    <div class="btw-label" data-testid="btw-label">
      <span class="codicon codicon-comment" /> {l10n.t('Side note')}
    </div>
  );
}

function messageText(msg: ViewMessage): string {
  return msg.blocks
    .map((b) => (b.kind === 'text' ? b.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** What a muted engine line says for each origin; the model's text itself is behind "Show". */
export function engineLabel(origin: string, text: string): string {
  switch (origin) {
    case 'plan-final':
      return l10n.t('Plan finished — summarising');
    case 'plan-resume':
      return l10n.t('Resuming the interrupted agent');
    case 'plan-step':
      return l10n.t('Instructions from the scheduler');
    case 'subagent-task':
      return l10n.t('Task: {0}', text.split('\n')[0]);
    case 'control':
      return text.trim().toLowerCase() === 'continue' ? l10n.t('Continuing') : text;
    default:
      return l10n.t('Sent by GoVibe');
  }
}

/**
 * A user-role message the engine wrote (the scheduler's prompts, a
 * sub-agent's task): the model read it as a user message, but the person
 * did not write it, so it is a small muted line, its text one click away.
 */
function EngineLine({ msg }: { msg: ViewMessage }) {
  const [show, setShow] = useState(false);
  const text = messageText(msg);
  return (
    <div class="engine-line" data-testid="engine-line" data-origin={msg.origin} data-id={msg.id}>
      <span class={`codicon ${msg.origin === 'plan-final' ? 'codicon-checklist' : 'codicon-gear'}`} />
      <span class="engine-label">{engineLabel(msg.origin!, text)}</span>
      {text && msg.origin !== 'subagent-task' && (
        <button type="button" class="link-btn" data-testid="engine-line-toggle" onClick={() => setShow(!show)}>
          {show ? l10n.t('Hide') : l10n.t('Show')}
        </button>
      )}
      {show && <pre class="engine-text">{text}</pre>}
    </div>
  );
}

function UserMessage({ msg, sessionId, canRollback }: Props) {
  const { bridge } = useServices();
  const text = messageText(msg);
  // Only a turn with a before-snapshot can be rolled back; the host says
  // what the rollback will change and asks before doing it.
  const rollback = !!msg.turnId && !!sessionId && canRollback && (msg.snapshots?.length ?? 0) > 0;
  return (
    <div class={`message message-user${msg.btw ? ' btw' : ''}${msg.origin ? ' by-control' : ''}`} data-testid="message-user" data-id={msg.id} data-origin={msg.origin}>
      {msg.btw && <SideNoteLabel />}
      <div class="user-text">{msg.origin ? <><span class="codicon codicon-debug-continue" /> {engineLabel(msg.origin, text)}</> : text}</div>
      <UserExtras attachments={msg.attachments} contextFiles={msg.contextFiles} />
      {rollback && (
        <div class="turn-actions">
          <button
            type="button"
            class="link-btn"
            data-testid="rollback"
            onClick={() => bridge.post({ type: 'rollbackTurn', sessionId: sessionId!, turnId: msg.turnId! })}
          >
            <span class="codicon codicon-discard" /> {l10n.t('Roll back to before this turn')}
          </button>
        </div>
      )}
    </div>
  );
}

interface BlockProps {
  block: Block;
  msg: ViewMessage;
  index: number;
  streaming: boolean;
  sessionId?: string;
  retryable: boolean;
}

function BlockView({ block, msg, index, streaming, sessionId, retryable }: BlockProps) {
  const msgId = msg.id;
  switch (block.kind) {
    case 'text':
      return <Markdown text={block.text} streaming={streaming} />;
    case 'reasoning':
      return <Reasoning text={block.text} openKey={`reasoning:${msgId}:${index}`} streaming={streaming} />;
    case 'tool':
      return <ToolCard block={block} />;
    case 'notice':
      return (
        <div class={`notice notice-${block.level}`} data-testid="notice">
          <span class={`codicon ${block.level === 'error' ? 'codicon-error' : block.level === 'warn' ? 'codicon-warning' : 'codicon-info'}`} />
          <span class="notice-text">{block.text}</span>
        </div>
      );
    case 'hook':
      return <HookNotice run={block.run} />;
    case 'error':
      return <ErrorView error={block.error} turnId={msg.turnId} sessionId={sessionId} retryable={retryable} />;
    case 'review':
      return <ReviewView card={block.card} />;
    case 'compaction':
      return <CompactionNotice block={block} />;
    case 'turnEnd':
      return <TurnEnd status={block.status} />;
  }
}

function Reasoning({ text, openKey, streaming }: { text: string; openKey: string; streaming: boolean }) {
  const { bridge } = useServices();
  const [open, setOpen] = useState(bridge.ui.open[openKey] ?? false);
  return (
    <details
      class="reasoning"
      data-testid="reasoning"
      open={open}
      onToggle={(e) => {
        const v = (e.currentTarget as HTMLDetailsElement).open;
        if (v === open) return;
        setOpen(v);
        bridge.setOpen(openKey, v);
      }}
    >
      <summary>
        <span class={`codicon ${streaming ? 'codicon-loading codicon-modifier-spin' : 'codicon-lightbulb'}`} />{' '}
        {/* Only a block still being written is "thinking"; a finished one must not claim to be. */}
        <span data-testid="reasoning-label">{streaming ? l10n.t('Thinking…') : l10n.t('Thought process')}</span>
      </summary>
      {open && <Markdown text={text} streaming={streaming} />}
    </details>
  );
}

/** The text the user sent in a turn (the last user message when the turn is unknown). */
export function turnText(messages: ViewMessage[], turnId: string | undefined): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user' || (turnId && m.turnId && m.turnId !== turnId)) continue;
    // The scheduler's prompts are not something the user sent.
    if (m.origin && m.origin !== 'control') continue;
    const text = m.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('\n').trim();
    if (text) return text;
  }
  return undefined;
}

/** The turn of the latest message the person sent (not an engine prompt). */
export function lastTurnId(messages: ViewMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && (!m.origin || m.origin === 'control')) return m.turnId ?? m.id;
  }
  return undefined;
}

export function ErrorView({ error, turnId, sessionId, retryable }: { error: ErrorInfo; turnId?: string; sessionId?: string; retryable: boolean }) {
  const { bridge, store } = useServices();
  const msg = actionMessage(error.action);
  // Retry sends the same message again, so nobody has to retype it, and
  // the new attempt takes the failed one's place (the sidecar leaves it
  // out of the transcript too): one copy of the message, one outcome.
  // Only the latest turn's error offers it.
  const canRetry = retryable && !!sessionId && !!turnId;
  const retry = () => {
    const text = turnText(store.state.messages, turnId);
    if (!text || store.state.running || !turnId) return;
    store.dropTurn(turnId);
    bridge.post({ type: 'send', text, retryOf: turnId, ...(sessionId ? { sessionId } : {}) });
    store.markSent();
  };
  return (
    <div class="notice notice-error" data-testid="error" role="alert">
      <span class="codicon codicon-error" /> <span class="notice-text error-text">{error.message || l10n.t('Something went wrong.')}</span>
      <span class="error-actions">
        {msg && error.action && (
          <vscode-button data-testid="error-action" onClick={() => bridge.post(msg)}>
            {actionLabel(error.action)}
          </vscode-button>
        )}
        {canRetry && (
          <vscode-button secondary icon="refresh" data-testid="error-retry" onClick={retry}>
            {l10n.t('Retry')}
          </vscode-button>
        )}
      </span>
    </div>
  );
}

function TurnEnd({ status }: { status: string }) {
  const { bridge } = useServices();
  if (status === 'max_turns') {
    return (
      <div class="notice notice-warn" data-testid="turn-end">
        <span class="codicon codicon-warning" /> <span class="notice-text">{l10n.t('Stopped after reaching the step limit for one request.')}</span>
        <vscode-button class="notice-action" secondary onClick={() => bridge.post({ type: 'command', command: 'continue' })}>
          {l10n.t('Continue')}
        </vscode-button>
      </div>
    );
  }
  return (
    <div class="notice notice-info" data-testid="turn-end">
      <span class="codicon codicon-debug-stop" /> <span class="notice-text">{l10n.t('Stopped at your request.')}</span>
    </div>
  );
}

function hookResult(r: string): string {
  switch (r) {
    case 'ok':
      return l10n.t('ok');
    case 'blocked':
      return l10n.t('blocked');
    case 'failed':
      return l10n.t('failed');
    case 'timeout':
      return l10n.t('timed out');
    default:
      return r;
  }
}

/** One hook run: a quiet line, in warning colour when the hook blocked the action. */
function HookNotice({ run }: { run: HookRun }) {
  const blocked = run.result === 'blocked';
  return (
    <div
      class={`notice hook-notice ${blocked ? 'notice-warn' : 'notice-info'}`}
      data-testid="hook-notice"
      data-result={run.result}
      title={run.note || undefined}
    >
      <span class={`codicon ${blocked ? 'codicon-warning' : 'codicon-plug'}`} />
      <span class="notice-text">
        {l10n.t('Hook {0}: {1} — {2}', run.event, run.command, hookResult(run.result))}
        {run.note && <span class="muted"> ({run.note})</span>}
      </span>
    </div>
  );
}
