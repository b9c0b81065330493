import * as l10n from '@vscode/l10n';
import { useEffect, useState } from 'preact/hooks';
import type { TodoState } from '../../../src/protocol.gen';
import { useServices } from '../context';

interface Row {
  title: string;
  description?: string;
  acceptance?: string;
}

/**
 * Plan mode's proposal as an editable todo list: rename, remove or add
 * items, then "Run plan" hands the edited list to the scheduler (the
 * session goes back to Agent mode).
 */
export function PlanEditor({ todo, sessionId }: { todo: TodoState; sessionId?: string }) {
  const { bridge } = useServices();
  const fresh = () => todo.items.map((i) => ({ title: i.title, description: i.description, acceptance: i.acceptance }));
  const [rows, setRows] = useState<Row[]>(fresh);
  useEffect(() => setRows(fresh()), [todo]);
  const set = (i: number, title: string) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, title } : r)));
  const valid = rows.length > 0 && rows.every((r) => r.title.trim() !== '');
  return (
    <section class="todo-panel plan-editor" data-testid="plan-editor">
      <div class="todo-head">
        <span class="codicon codicon-checklist" />
        <span class="todo-goal">{todo.goal || l10n.t('Plan')}</span>
        <span class="muted">{l10n.t('proposed')}</span>
      </div>
      <ol class="todo-items">
        {rows.map((r, i) => (
          <li key={i} class="todo-item plan-row" data-testid="plan-row">
            <input
              class="text-input"
              data-testid="plan-row-title"
              value={r.title}
              aria-label={l10n.t('Item {0}', i + 1)}
              onInput={(e) => set(i, (e.target as HTMLInputElement).value)}
            />
            <button type="button" class="icon-btn" data-testid="plan-row-remove" title={l10n.t('Remove this item')} onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}>
              <span class="codicon codicon-close" />
            </button>
          </li>
        ))}
      </ol>
      <div class="plan-actions">
        <button type="button" class="link-btn" data-testid="plan-add" onClick={() => setRows((rs) => [...rs, { title: '' }])}>
          {l10n.t('Add item')}
        </button>
        <vscode-button
          data-testid="plan-run"
          disabled={!valid || !sessionId}
          onClick={() => sessionId && bridge.post({ type: 'runPlan', sessionId, items: rows.map((r) => clean(r)) })}
        >
          {l10n.t('Run plan')}
        </vscode-button>
      </div>
    </section>
  );
}

/** The item as sent: a trimmed title, and only the fields that are set. */
function clean(r: Row): Row {
  const out: Row = { title: r.title.trim() };
  if (r.description) out.description = r.description;
  if (r.acceptance) out.acceptance = r.acceptance;
  return out;
}
