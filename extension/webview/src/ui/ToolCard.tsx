import * as l10n from '@vscode/l10n';
import { useState } from 'preact/hooks';
import { useServices } from '../context';
import { formatDuration, prettyJson, summarizeArgs } from '../format';
import { plainText } from '../markdown';
import type { ToolBlock } from '../model';
import { screenshotSrc } from '../screenshots';
import { McpImages } from './McpImages';
import { autoApprovalOf, autoApprovalText, declinedOf, declinedText, withheldOf } from '../toolMeta';
import { denialOf, denialText, sandboxOf, sandboxText } from '../sandbox';

const OUTPUT_PREVIEW = 4000;

/**
 * Tools whose summarised argument is prose the model wrote in markdown (a
 * question, a notification): shown as its plain text, as the chat renders
 * it, never as raw `**markup**`. Commands and paths are shown verbatim.
 */
const PROSE_TOOLS = new Set(['ask_human', 'show_notification']);

interface EditMeta {
  path: string;
  before?: string;
  after?: string;
}

/**
 * Applied edits carry their before/after text in the result meta, either as
 * {path, before, after} or as {edits: [{path, before, after}, ...]}.
 */
export function editsFromMeta(meta: unknown): EditMeta[] {
  if (!meta || typeof meta !== 'object') return [];
  const m = meta as Record<string, unknown>;
  const one = (v: unknown): EditMeta | null => {
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    if (typeof o.path !== 'string') return null;
    if (typeof o.before !== 'string' && typeof o.after !== 'string') return null;
    return {
      path: o.path,
      before: typeof o.before === 'string' ? o.before : undefined,
      after: typeof o.after === 'string' ? o.after : undefined,
    };
  };
  if (Array.isArray(m.edits)) return m.edits.map(one).filter((e): e is EditMeta => e !== null);
  const e = one(m);
  return e ? [e] : [];
}

function statusIcon(s: ToolBlock['status']): string {
  switch (s) {
    case 'done':
      return 'codicon-check';
    case 'error':
      return 'codicon-error';
    case 'cancelled':
    case 'declined':
    case 'withheld':
      return 'codicon-circle-slash';
    case 'pending':
      return 'codicon-clock';
    default:
      return 'codicon-loading codicon-modifier-spin';
  }
}

export function statusLabel(s: ToolBlock['status'], meta?: unknown): string {
  switch (s) {
    case 'done':
      return l10n.t('Done');
    case 'error':
      return l10n.t('Failed');
    case 'cancelled':
      return l10n.t('Cancelled');
    case 'declined':
      return l10n.t('Declined');
    case 'withheld':
      return withheldOf(meta)?.by === 'hook' ? l10n.t('Blocked by a hook') : l10n.t('Not run in this mode');
    case 'pending':
      return l10n.t('Waiting');
    default:
      return l10n.t('Running');
  }
}

/** Screenshots a browser_sub_agent run saved (result meta.screenshots). */
export function screenshotsFromMeta(meta: unknown): string[] {
  if (!meta || typeof meta !== 'object') return [];
  const shots = (meta as Record<string, unknown>).screenshots;
  return Array.isArray(shots) ? shots.filter((s): s is string => typeof s === 'string') : [];
}

export function ToolCard({ block }: { block: ToolBlock }) {
  const { bridge, store } = useServices();
  const key = `tool:${block.callId}`;
  const failed = block.status === 'error';
  // A command the sandbox refused something failed by design, not by a
  // bug: the card is neutral and folded, and says what was denied.
  const denial = denialOf(block.meta);
  const errorLook = failed && !denial;
  // Until the user chooses, a card is open exactly when its call failed.
  const [chosen, setChosen] = useState<boolean | undefined>(bridge.ui.open[key]);
  const open = chosen ?? errorLook;
  const [full, setFull] = useState(false);
  const summary = block.summary || summarizeArgs(block.args, 80, PROSE_TOOLS.has(block.name) ? plainText : undefined);
  const edits = block.status === 'done' ? editsFromMeta(block.meta) : [];
  const shots = screenshotsFromMeta(block.meta);
  // A refusal translated for people replaces the English text meant for the model.
  const out = block.display || block.output || '';
  const auto = autoApprovalOf(block.meta);
  const declined = block.status === 'declined' ? declinedOf(block.meta) : undefined;
  const sandbox = sandboxOf(block.meta);
  const shown = full || out.length <= OUTPUT_PREVIEW ? out : `${out.slice(0, OUTPUT_PREVIEW)}…`;
  return (
    <div class={`tool-card status-${block.status}${failed && denial ? ' sandbox-denied' : ''}`} data-testid="tool-card" data-status={block.status}>
    <details
      open={open}
      onToggle={(e) => {
        const v = (e.currentTarget as HTMLDetailsElement).open;
        if (v === open) return;
        setChosen(v);
        bridge.setOpen(key, v);
      }}
    >
      <summary>
        {failed && denial ? (
          <span class="codicon codicon-lock" title={l10n.t('Blocked by the sandbox')} />
        ) : (
          <span class={`codicon ${statusIcon(block.status)}`} title={statusLabel(block.status, block.meta)} />
        )}
        <span class="tool-name">{block.name}</span>
        <span class="tool-summary" title={summary}>
          {summary}
        </span>
        {block.durationMs !== undefined && <span class="tool-duration">{formatDuration(block.durationMs)}</span>}
      </summary>
      {open && (
        <div class="tool-body">
          {block.args && (
            <section>
              <div class="tool-label">{l10n.t('Arguments')}</div>
              <pre class="tool-pre">{prettyJson(block.args)}</pre>
            </section>
          )}
          {block.ok !== undefined && (
            <section>
              <div class="tool-label">{errorLook ? l10n.t('Error') : l10n.t('Result')}</div>
              <pre class={`tool-pre${errorLook ? ' tool-error' : ''}`} data-testid="tool-output">
                {shown || l10n.t('(no output)')}
              </pre>
              {shown !== out && (
                <button type="button" class="link-btn" onClick={() => setFull(true)}>
                  {l10n.t('Show all {0} characters', out.length)}
                </button>
              )}
            </section>
          )}
        </div>
      )}
    </details>
      {errorLook && !open && out && <div class="tool-error-line">{out.split('\n')[0]}</div>}
      {denial && (
        <div class="tool-denial" data-testid="sandbox-denial">
          <span class="codicon codicon-lock" /> {denialText(denial)}
        </div>
      )}
      {block.status === 'withheld' && out && (
        <div class="tool-declined" data-testid="tool-withheld">
          {out}
        </div>
      )}
      {declined && (
        <div class="tool-declined" data-testid="tool-declined">
          {declinedText(block.name, declined.reason)}
        </div>
      )}
      {(auto || sandbox) && (
        <div class="tool-facts">
          {auto && (
            <span class="tool-auto" data-testid="auto-approved" title={auto.detail}>
              <span class="codicon codicon-shield" /> {autoApprovalText(auto)}
            </span>
          )}
          {sandbox && (
            <span class="tool-sandbox" data-testid="tool-sandbox">
              {sandboxText(sandbox)}
            </span>
          )}
        </div>
      )}
      {edits.map((e) => (
        <vscode-button
          key={e.path}
          secondary
          icon="diff"
          data-testid="open-diff"
          onClick={() => bridge.post({ type: 'openDiff', path: e.path, before: e.before, after: e.after })}
        >
          {l10n.t('Open diff')}
          {edits.length > 1 ? ` · ${e.path}` : ''}
        </vscode-button>
      ))}
      {shots.map((p, i) => {
        const n = shots.length > 1 ? ` ${i + 1}` : '';
        const open = () => bridge.post({ type: 'openImage', path: p });
        const src = screenshotSrc(p, store.state.screenshots);
        // Inline, as wide as the card allows; a click opens it full size.
        // A path outside the screenshot folder stays a button.
        return src ? (
          <button key={p} type="button" class="tool-shot" data-testid="screenshot" title={l10n.t('Open full size')} onClick={open}>
            <img src={src} alt={l10n.t('Screenshot') + n} loading="lazy" />
          </button>
        ) : (
          <vscode-button key={p} secondary data-testid="open-screenshot" onClick={open}>
            <span class="codicon codicon-device-camera" /> {l10n.t('Open screenshot')}
            {n}
          </vscode-button>
        );
      })}
      <McpImages block={block} />
    </div>
  );
}
