// Pending confirmations, pinned above the input at full width. Each card
// shows all of what it asks about (the whole command, wrapped; an edit's
// line counts) and its buttons without any inner scrolling; the first open
// card answers to Alt+A / Alt+R.
import * as l10n from '@vscode/l10n';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ConfirmRequest } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { diffStat } from '../diffstat';
import { fileName } from '../format';
import type { ConfirmView } from '../store';
import { FetchConfirm, QuestionConfirm, ToolConfirm } from './AskCards';
import { AlwaysAllowButton, AlwaysAllowRules, CountdownNote, Kbd, ReasonInput, Resolved, autoSize, useCountdown, useResolve, useShortcuts } from './confirmParts';
import { CwdLine } from './PathLine';
import { ReviewView } from './Review';
import { SandboxConfirm } from './SandboxConfirm';
import { SANDBOX_DENIED } from '../sandbox';

function openDiff(req: ConfirmRequest) {
  return {
    type: 'openDiff' as const,
    confirmId: req.id,
    path: req.path,
    before: req.original ?? '',
    after: req.proposed ?? '',
  };
}

export function ConfirmArea({ confirms }: { confirms: ConfirmView[] }) {
  const { bridge } = useServices();
  if (confirms.length === 0) return null;
  const primary = confirms.find((c) => !c.resolved)?.request.id;
  const openEdits = confirms.filter((c) => c.request.kind === 'edit' && !c.resolved);
  const byTurn = new Map<string, ConfirmView[]>();
  for (const c of openEdits) byTurn.set(c.request.turnId, [...(byTurn.get(c.request.turnId) ?? []), c]);
  const listed = new Set<string>();
  const lists: ConfirmView[][] = [];
  for (const group of byTurn.values()) {
    if (group.length < 2) continue;
    lists.push(group);
    for (const c of group) listed.add(c.request.id);
  }
  return (
    <section class="confirm-area" data-testid="confirm-area" aria-label={l10n.t('Waiting for you')}>
      {lists.map((group) => (
        <div class="review-list" data-testid="review-list" key={group[0].request.id}>
          <div class="review-list-head">
            <span class="codicon codicon-files" /> {l10n.t('{0} file changes are waiting for your review', group.length)}
            <vscode-button
              data-testid="review-all"
              onClick={() => bridge.post({ type: 'reviewAll', confirmIds: group.map((c) => c.request.id) })}
            >
              {l10n.t('Review all')}
            </vscode-button>
          </div>
          {group.map((c) => (
            <EditConfirm key={c.request.id} view={c} compact primary={c.request.id === primary} />
          ))}
        </div>
      ))}
      {confirms
        .filter((c) => !listed.has(c.request.id))
        .map((c) => {
          const p = c.request.id === primary;
          switch (c.request.kind) {
            case 'edit':
              return <EditConfirm key={c.request.id} view={c} primary={p} />;
            case 'shell':
              return c.request.analysis?.class === SANDBOX_DENIED ? (
                <SandboxConfirm key={c.request.id} view={c} primary={p} />
              ) : (
                <ShellConfirm key={c.request.id} view={c} primary={p} />
              );
            case 'tool':
              return <ToolConfirm key={c.request.id} view={c} primary={p} />;
            case 'fetch':
              return <FetchConfirm key={c.request.id} view={c} primary={p} />;
            default:
              return <QuestionConfirm key={c.request.id} view={c} primary={p} />;
          }
        })}
    </section>
  );
}

function DiffStatBadge({ req }: { req: ConfirmRequest }) {
  const st = useMemo(() => diffStat(req.original ?? '', req.proposed ?? ''), [req.original, req.proposed]);
  if (req.original === undefined && req.proposed === undefined) return null;
  return (
    <span class="diff-stat" data-testid="diff-stat" title={l10n.t('{0} lines added, {1} removed', st.added, st.removed)}>
      <span class="diff-add">+{st.added}</span> <span class="diff-del">−{st.removed}</span>
    </span>
  );
}

function EditConfirm({ view, compact, primary }: { view: ConfirmView; compact?: boolean; primary: boolean }) {
  const { bridge } = useServices();
  const resolve = useResolve();
  const req = view.request;
  const [reason, setReason] = useState('');
  const countdown = useCountdown(req.autoAcceptMs, !view.resolved, () => resolve(req.id, 'accept'));
  const path = req.relPath || req.path || '';
  const accept = () => resolve(req.id, 'accept', { reason });
  const reject = () => resolve(req.id, 'reject', { reason });
  const diff = () => bridge.post(openDiff(req));
  useShortcuts(primary && !view.resolved, { KeyA: accept, KeyR: reject, KeyD: diff });
  return (
    <div
      class={`confirm-card confirm-edit${compact ? ' compact' : ''}${primary ? ' primary' : ''}`}
      data-testid="confirm-card"
      data-kind="edit"
    >
      <div class="confirm-head">
        <span class="codicon codicon-edit" />
        <span class="confirm-title" title={path}>
          {compact ? fileName(path) : l10n.t('Apply changes to {0}?', fileName(path))}
        </span>
        {req.isNew && <vscode-badge>{l10n.t('new file')}</vscode-badge>}
        {req.delete && <vscode-badge>{l10n.t('delete')}</vscode-badge>}
        <DiffStatBadge req={req} />
      </div>
      {!compact && path !== fileName(path) && <div class="muted path">{path}</div>}
      {/* What the edit does beyond itself (it creates the project memory), from the sidecar, translated. */}
      {req.notice && (
        <div class="confirm-notice" data-testid="confirm-notice">
          <span class="codicon codicon-info" /> {req.notice}
        </div>
      )}
      {view.resolved ? (
        <Resolved decision={view.resolved} />
      ) : (
        <>
          <CountdownNote countdown={countdown} text={l10n.t('Accepting automatically in {0} s', countdown.secondsLeft)} />
          {!compact && <ReasonInput reason={reason} setReason={setReason} onFocus={countdown.stop} />}
          <div class="confirm-actions">
            <vscode-button data-testid="confirm-allow" title={primary ? 'Alt+A' : undefined} onClick={accept}>
              {l10n.t('Accept')} <Kbd k="A" show={primary} />
            </vscode-button>
            <AlwaysAllowButton rules={req.allowRules} onClick={() => resolve(req.id, 'accept', { reason, alwaysAllow: true })} />
            <vscode-button secondary data-testid="confirm-deny" title={primary ? 'Alt+R' : undefined} onClick={reject}>
              {l10n.t('Reject')} <Kbd k="R" show={primary} />
            </vscode-button>
            <vscode-button secondary icon="diff" data-testid="confirm-open-diff" title={primary ? 'Alt+D' : undefined} onClick={diff}>
              {l10n.t('Open diff')}
            </vscode-button>
          </div>
          <AlwaysAllowRules rules={req.allowRules} />
        </>
      )}
    </div>
  );
}

function classLabel(c: string): string {
  switch (c) {
    case 'read-only':
      return l10n.t('read-only');
    case 'mutating':
      return l10n.t('changes files');
    case 'dangerous':
      return l10n.t('dangerous');
    default:
      return c;
  }
}

function ShellConfirm({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const resolve = useResolve();
  const req = view.request;
  const original = req.command ?? '';
  const [command, setCommand] = useState(original);
  const [reason, setReason] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const countdown = useCountdown(req.autoAcceptMs, !view.resolved, () => resolve(req.id, 'accept'));
  const cls = req.analysis?.class ?? '';
  const edited = command.trim() !== original.trim();
  useLayoutEffect(() => autoSize(input.current), [command, view.resolved]);
  const allow = () => resolve(req.id, 'accept', { reason, command: edited ? command.trim() : undefined });
  const deny = () => resolve(req.id, 'reject', { reason });
  const edit = () => {
    countdown.stop();
    input.current?.focus();
  };
  useShortcuts(primary && !view.resolved, { KeyA: allow, KeyR: deny, KeyE: edit });
  return (
    <div class={`confirm-card confirm-shell class-${cls}${primary ? ' primary' : ''}`} data-testid="confirm-card" data-kind="shell">
      <div class="confirm-head">
        <span class="codicon codicon-terminal" />
        <span class="confirm-title">{l10n.t('Run this command?')}</span>
        {cls && (
          <span class={`shell-class shell-${cls}`} data-testid="shell-class">
            {classLabel(cls)}
          </span>
        )}
      </div>
      {req.analysis && req.analysis.reasons.length > 0 && (
        <ul class="shell-reasons">
          {req.analysis.reasons.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      {req.review && <ReviewView card={req.review} />}
      {view.resolved ? (
        <>
          <pre class="command-text">{command}</pre>
          <Resolved decision={view.resolved} />
        </>
      ) : (
        <>
          <textarea
            ref={input}
            class="command-input"
            data-testid="confirm-command"
            rows={1}
            spellcheck={false}
            value={command}
            aria-label={l10n.t('Command')}
            onFocus={countdown.stop}
            onInput={(e) => setCommand((e.currentTarget as HTMLTextAreaElement).value)}
          />
          {req.cwd && <CwdLine path={req.cwd} testid="confirm-cwd" />}
          <CountdownNote countdown={countdown} text={l10n.t('Running automatically in {0} s', countdown.secondsLeft)} />
          <ReasonInput reason={reason} setReason={setReason} onFocus={countdown.stop} />
          <div class="confirm-actions">
            <vscode-button data-testid="confirm-allow" title={primary ? 'Alt+A' : undefined} onClick={allow}>
              {edited ? l10n.t('Run edited command') : l10n.t('Allow')} <Kbd k="A" show={primary} />
            </vscode-button>
            {!edited && <AlwaysAllowButton rules={req.allowRules} onClick={() => resolve(req.id, 'accept', { reason, alwaysAllow: true })} />}
            <vscode-button secondary data-testid="confirm-deny" title={primary ? 'Alt+R' : undefined} onClick={deny}>
              {l10n.t('Deny')} <Kbd k="R" show={primary} />
            </vscode-button>
            <vscode-button secondary icon="edit" data-testid="confirm-edit" title={primary ? 'Alt+E' : undefined} onClick={edit}>
              {l10n.t('Edit')}
            </vscode-button>
          </div>
          {!edited && <AlwaysAllowRules rules={req.allowRules} />}
        </>
      )}
    </div>
  );
}
