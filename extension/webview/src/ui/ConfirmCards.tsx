import * as l10n from '@vscode/l10n';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConfirmRequest } from '../../../src/protocol.gen';
import { useServices } from '../context';
import { fileName } from '../format';
import type { ConfirmView } from '../store';
import { ReviewView } from './Review';

type Extra = { reason?: string; command?: string; answer?: string };

function useResolve() {
  const { bridge, store } = useServices();
  return (id: string, decision: 'accept' | 'reject', extra: Extra = {}) => {
    const msg = { type: 'resolve' as const, id, decision, ...clean(extra) };
    bridge.post(msg);
    store.markResolved(id, decision);
  };
}

function clean(e: Extra): Extra {
  const out: Extra = {};
  if (e.reason?.trim()) out.reason = e.reason.trim();
  if (e.command !== undefined) out.command = e.command;
  if (e.answer !== undefined) out.answer = e.answer;
  return out;
}

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
    <div class="confirm-area">
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
            <EditConfirm key={c.request.id} view={c} compact />
          ))}
        </div>
      ))}
      {confirms
        .filter((c) => !listed.has(c.request.id))
        .map((c) => {
          switch (c.request.kind) {
            case 'edit':
              return <EditConfirm key={c.request.id} view={c} />;
            case 'shell':
              return <ShellConfirm key={c.request.id} view={c} />;
            default:
              return <QuestionConfirm key={c.request.id} view={c} />;
          }
        })}
    </div>
  );
}

function Resolved({ decision }: { decision: 'accept' | 'reject' }) {
  return (
    <div class="confirm-resolved" data-testid="confirm-resolved">
      <span class={`codicon ${decision === 'accept' ? 'codicon-check' : 'codicon-close'}`} />{' '}
      {decision === 'accept' ? l10n.t('Accepted') : l10n.t('Rejected')}
    </div>
  );
}

function useCountdown(ms: number | undefined, active: boolean, onDone: () => void) {
  const [left, setLeft] = useState(ms && ms > 0 ? ms : 0);
  const [stopped, setStopped] = useState(!(ms && ms > 0));
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (stopped || !active) return;
    const end = Date.now() + left;
    const t = setInterval(() => {
      const l = Math.max(0, end - Date.now());
      setLeft(l);
      if (l === 0) {
        clearInterval(t);
        setStopped(true);
        done.current();
      }
    }, 200);
    return () => clearInterval(t);
  }, [stopped, active]);
  return { running: !stopped && active, secondsLeft: Math.ceil(left / 1000), stop: () => setStopped(true) };
}

/** The stoppable auto-accept countdown of a card. */
function CountdownNote({ countdown, text }: { countdown: { running: boolean; stop: () => void }; text: string }) {
  if (!countdown.running) return null;
  return (
    <div class="countdown" data-testid="confirm-countdown">
      {text}
      <button type="button" class="link-btn" data-testid="countdown-stop" onClick={countdown.stop}>
        {l10n.t('Stop countdown')}
      </button>
    </div>
  );
}

/** The optional reason sent to the agent with a decision. */
function ReasonInput({ reason, setReason, onFocus }: { reason: string; setReason: (r: string) => void; onFocus: () => void }) {
  return (
    <input
      class="text-input"
      data-testid="confirm-reason"
      placeholder={l10n.t('Reason (optional, sent to the agent)')}
      value={reason}
      onFocus={onFocus}
      onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)}
    />
  );
}

function EditConfirm({ view, compact }: { view: ConfirmView; compact?: boolean }) {
  const { bridge } = useServices();
  const resolve = useResolve();
  const req = view.request;
  const [reason, setReason] = useState('');
  const countdown = useCountdown(req.autoAcceptMs, !view.resolved, () => resolve(req.id, 'accept'));
  const path = req.relPath || req.path || '';
  return (
    <div class={`confirm-card confirm-edit${compact ? ' compact' : ''}`} data-testid="confirm-card" data-kind="edit">
      <div class="confirm-head">
        <span class="codicon codicon-edit" />
        <span class="confirm-title" title={path}>
          {compact ? fileName(path) : l10n.t('Apply changes to {0}?', fileName(path))}
        </span>
        {req.isNew && <vscode-badge>{l10n.t('new file')}</vscode-badge>}
        {req.delete && <vscode-badge>{l10n.t('delete')}</vscode-badge>}
        {!compact && <span class="muted path">{path}</span>}
      </div>
      {view.resolved ? (
        <Resolved decision={view.resolved} />
      ) : (
        <>
          <CountdownNote countdown={countdown} text={l10n.t('Accepting automatically in {0} s', countdown.secondsLeft)} />
          <ReasonInput reason={reason} setReason={setReason} onFocus={countdown.stop} />
          <div class="confirm-actions">
            <vscode-button data-testid="confirm-allow" onClick={() => resolve(req.id, 'accept', { reason })}>
              {l10n.t('Accept')}
            </vscode-button>
            <vscode-button secondary data-testid="confirm-deny" onClick={() => resolve(req.id, 'reject', { reason })}>
              {l10n.t('Reject')}
            </vscode-button>
            <vscode-button secondary data-testid="confirm-open-diff" onClick={() => bridge.post(openDiff(req))}>
              <span class="codicon codicon-diff" /> {l10n.t('Open diff')}
            </vscode-button>
          </div>
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

function ShellConfirm({ view }: { view: ConfirmView }) {
  const resolve = useResolve();
  const req = view.request;
  const original = req.command ?? '';
  const [command, setCommand] = useState(original);
  const [reason, setReason] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const countdown = useCountdown(req.autoAcceptMs, !view.resolved, () => resolve(req.id, 'accept'));
  const cls = req.analysis?.class ?? '';
  const edited = command.trim() !== original.trim();
  return (
    <div class={`confirm-card confirm-shell class-${cls}`} data-testid="confirm-card" data-kind="shell">
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
          <pre class="tool-pre">{command}</pre>
          <Resolved decision={view.resolved} />
        </>
      ) : (
        <>
          <textarea
            ref={input}
            class="command-input"
            data-testid="confirm-command"
            rows={Math.min(6, command.split('\n').length)}
            spellcheck={false}
            value={command}
            onFocus={countdown.stop}
            onInput={(e) => setCommand((e.currentTarget as HTMLTextAreaElement).value)}
          />
          {req.cwd && <div class="muted">{l10n.t('in {0}', req.cwd)}</div>}
          <CountdownNote countdown={countdown} text={l10n.t('Running automatically in {0} s', countdown.secondsLeft)} />
          <ReasonInput reason={reason} setReason={setReason} onFocus={countdown.stop} />
          <div class="confirm-actions">
            <vscode-button
              data-testid="confirm-allow"
              onClick={() => resolve(req.id, 'accept', { reason, command: edited ? command.trim() : undefined })}
            >
              {edited ? l10n.t('Run edited command') : l10n.t('Allow')}
            </vscode-button>
            <vscode-button secondary data-testid="confirm-deny" onClick={() => resolve(req.id, 'reject', { reason })}>
              {l10n.t('Deny')}
            </vscode-button>
            <vscode-button
              secondary
              data-testid="confirm-edit"
              onClick={() => {
                countdown.stop();
                input.current?.focus();
              }}
            >
              <span class="codicon codicon-edit" /> {l10n.t('Edit')}
            </vscode-button>
          </div>
        </>
      )}
    </div>
  );
}

function QuestionConfirm({ view }: { view: ConfirmView }) {
  const resolve = useResolve();
  const req = view.request;
  const [answer, setAnswer] = useState('');
  return (
    <div class="confirm-card confirm-question" data-testid="confirm-card" data-kind="question">
      <div class="confirm-head">
        <span class="codicon codicon-question" />
        <span class="confirm-title">{l10n.t('The agent has a question')}</span>
      </div>
      <div class="question-text">{req.question}</div>
      {view.resolved ? (
        <Resolved decision={view.resolved} />
      ) : (
        <>
          {req.options && req.options.length > 0 && (
            <div class="question-options">
              {req.options.map((o) => (
                <vscode-button key={o} secondary data-testid="confirm-option" onClick={() => resolve(req.id, 'accept', { answer: o })}>
                  {o}
                </vscode-button>
              ))}
            </div>
          )}
          <textarea
            class="command-input"
            data-testid="confirm-answer"
            placeholder={l10n.t('Type your answer')}
            value={answer}
            onInput={(e) => setAnswer((e.currentTarget as HTMLTextAreaElement).value)}
          />
          <div class="confirm-actions">
            <vscode-button
              data-testid="confirm-allow"
              disabled={!answer.trim()}
              onClick={() => answer.trim() && resolve(req.id, 'accept', { answer: answer.trim() })}
            >
              {l10n.t('Answer')}
            </vscode-button>
            <vscode-button secondary data-testid="confirm-deny" onClick={() => resolve(req.id, 'reject')}>
              {l10n.t('Skip question')}
            </vscode-button>
          </div>
        </>
      )}
    </div>
  );
}
