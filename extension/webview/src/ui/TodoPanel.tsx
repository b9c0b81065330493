import * as l10n from '@vscode/l10n';
import { useState } from 'preact/hooks';
import type { TodoItem, TodoState } from '../../../src/protocol.gen';
import { useServices } from '../context';

function statusIcon(s: string): string {
  switch (s) {
    case 'running':
      return 'codicon-loading codicon-modifier-spin';
    case 'done':
      return 'codicon-pass-filled';
    case 'failed':
      return 'codicon-error';
    case 'skipped':
      return 'codicon-debug-step-over';
    case 'interrupted':
      return 'codicon-debug-pause';
    default:
      return 'codicon-circle-large-outline';
  }
}

export function todoStatusLabel(s: string): string {
  switch (s) {
    case 'pending':
      return l10n.t('pending');
    case 'running':
      return l10n.t('running');
    case 'done':
      return l10n.t('done');
    case 'failed':
      return l10n.t('failed');
    case 'skipped':
      return l10n.t('skipped');
    case 'interrupted':
      return l10n.t('interrupted');
    default:
      return s;
  }
}

interface Props {
  todo: TodoState;
  sessionId?: string;
  running: boolean;
}

export function TodoPanel({ todo, sessionId, running }: Props) {
  const { bridge } = useServices();
  const [open, setOpen] = useState(bridge.ui.open['todo'] ?? true);
  const done = todo.items.filter((i) => i.status === 'done').length;
  const control = (action: 'stop' | 'skip' | 'retry' | 'resume', index?: number) => {
    if (sessionId) bridge.post({ type: 'todoControl', sessionId, action, ...(index === undefined ? {} : { index }) });
  };
  const resumable = !running && todo.items.some((i) => i.status === 'pending' || i.status === 'interrupted');
  return (
    <section class="todo-panel" data-testid="todo-panel">
      <div class="todo-head">
        <button
          type="button"
          class="link-btn todo-toggle"
          aria-expanded={open}
          onClick={() => {
            setOpen(!open);
            bridge.setOpen('todo', !open);
          }}
        >
          <span class={`codicon ${open ? 'codicon-chevron-down' : 'codicon-chevron-right'}`} />
          <span class="todo-goal" data-testid="todo-goal">
            {todo.goal || l10n.t('Plan')}
          </span>
        </button>
        <span class="muted">{l10n.t('{0}/{1} done', done, todo.items.length)}</span>
        {running && (
          <button type="button" class="icon-btn" data-testid="todo-stop" title={l10n.t('Stop the plan')} onClick={() => control('stop')}>
            <span class="codicon codicon-debug-stop" />
          </button>
        )}
        {resumable && (
          <button type="button" class="icon-btn" data-testid="todo-resume" title={l10n.t('Resume the plan')} onClick={() => control('resume')}>
            <span class="codicon codicon-debug-continue" />
          </button>
        )}
      </div>
      {open && (
        <ol class="todo-items">
          {todo.items.map((it, i) => (
            <TodoRow key={i} item={it} index={i} current={i === todo.current} onControl={control} />
          ))}
        </ol>
      )}
    </section>
  );
}

function TodoRow({
  item,
  index,
  current,
  onControl,
}: {
  item: TodoItem;
  index: number;
  current: boolean;
  onControl: (a: 'skip' | 'retry', i: number) => void;
}) {
  const canSkip = item.status === 'pending' || item.status === 'running';
  const canRetry = item.status === 'failed' || item.status === 'skipped' || item.status === 'interrupted';
  return (
    <li class={`todo-item status-${item.status}${current ? ' current' : ''}`} data-testid="todo-item" data-status={item.status}>
      <span class={`codicon ${statusIcon(item.status)}`} title={todoStatusLabel(item.status)} />
      <div class="todo-main">
        <div class="todo-title" title={item.description}>
          {item.title}
        </div>
        <div class="todo-meta muted">
          {todoStatusLabel(item.status)}
          {item.agent && ` · ${item.agent}`}
          {item.turns ? ` · ${item.turns === 1 ? l10n.t('1 turn') : l10n.t('{0} turns', item.turns)}` : ''}
          {item.attempts && item.attempts > 1 ? ` · ${l10n.t('attempt {0}', item.attempts)}` : ''}
        </div>
        {item.summary && <div class="todo-summary">{item.summary}</div>}
      </div>
      {canSkip && (
        <button type="button" class="icon-btn" data-testid="todo-skip" title={l10n.t('Skip this item')} onClick={() => onControl('skip', index)}>
          <span class="codicon codicon-debug-step-over" />
        </button>
      )}
      {canRetry && (
        <button type="button" class="icon-btn" data-testid="todo-retry" title={l10n.t('Retry this item')} onClick={() => onControl('retry', index)}>
          <span class="codicon codicon-refresh" />
        </button>
      )}
    </li>
  );
}
