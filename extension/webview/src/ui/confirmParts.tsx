// Pieces shared by the pending-confirmation cards: answering, the
// auto-accept countdown, the optional reason, and keyboard shortcuts.
import * as l10n from '@vscode/l10n';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices } from '../context';

export type Extra = { reason?: string; command?: string; answer?: string; alwaysAllow?: boolean };

export function useResolve() {
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
  if (e.alwaysAllow) out.alwaysAllow = true;
  return out;
}

/**
 * "Always allow": accepts and writes the card's rules (the sidecar's
 * proposal, e.g. Bash(go test:*) or mcp__server__tool) as user allow
 * rules. Shown only when the sidecar offered rules; the rules themselves
 * are named below the buttons (AlwaysAllowRules), where a long one wraps.
 */
export function AlwaysAllowButton({ rules, onClick }: { rules?: string[]; onClick: () => void }) {
  if (!rules || rules.length === 0) return null;
  return (
    <vscode-button
      secondary
      data-testid="confirm-always"
      title={l10n.t('Allow now and add these user allow rules; list or revoke them with GoVibe: Always-Allowed Rules')}
      onClick={onClick}
    >
      {l10n.t('Always allow')}
    </vscode-button>
  );
}

/**
 * A rule as a person reads it. The rule grammar (Claude Code's) marks an
 * absolute path with a double slash, Edit(//home/me/app/main.go); on the
 * card that reads like a typo, so the path is shown as the path it is.
 * The rule exactly as written to the file is the tooltip.
 */
export function ruleLabel(rule: string): string {
  const m = /^(\w+)\(\/\/(.*)\)$/s.exec(rule);
  return m ? `${m[1]}(/${m[2]})` : rule;
}

/** The rules "Always allow" adds, under the card's buttons. */
export function AlwaysAllowRules({ rules }: { rules?: string[] }) {
  if (!rules || rules.length === 0) return null;
  return (
    <div class="muted always-note" data-testid="confirm-always-rules" title={rules.join('\n')}>
      {l10n.t('“Always allow” adds: {0}', rules.map(ruleLabel).join(', '))}
    </div>
  );
}

export function Resolved({ decision }: { decision: 'accept' | 'reject' }) {
  return (
    <div class="confirm-resolved" data-testid="confirm-resolved">
      <span class={`codicon ${decision === 'accept' ? 'codicon-check' : 'codicon-circle-slash'}`} />{' '}
      {decision === 'accept' ? l10n.t('Accepted') : l10n.t('Rejected')}
    </div>
  );
}

export function useCountdown(ms: number | undefined, active: boolean, onDone: () => void) {
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
export function CountdownNote({ countdown, text }: { countdown: { running: boolean; stop: () => void }; text: string }) {
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
export function ReasonInput({ reason, setReason, onFocus }: { reason: string; setReason: (r: string) => void; onFocus: () => void }) {
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

/** Alt+<letter> shortcuts, by KeyboardEvent.code so layouts and macOS Option do not matter. */
export type Shortcuts = Partial<Record<'KeyA' | 'KeyR' | 'KeyD' | 'KeyE', () => void>>;

/**
 * Binds the shortcuts while active: only the first open card listens, so
 * one key press answers exactly one confirmation.
 */
export function useShortcuts(active: boolean, keys: Shortcuts): void {
  const ref = useRef(keys);
  ref.current = keys;
  useEffect(() => {
    if (!active) return;
    const on = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const fn = ref.current[e.code as keyof Shortcuts];
      if (!fn) return;
      e.preventDefault();
      e.stopPropagation();
      fn();
    };
    // The window captured now: a cleanup Preact runs after a paint may come
    // when the global is gone (a test environment torn down first).
    const w = window;
    w.addEventListener('keydown', on, true);
    return () => w.removeEventListener('keydown', on, true);
  }, [active]);
}

/** The visible key hint next to a button's label. */
export function Kbd({ k, show }: { k: string; show: boolean }) {
  if (!show) return null;
  return <kbd class="kbd">{`Alt+${k}`}</kbd>;
}

/** Auto-grows a textarea to its content, so a long command never scrolls inside a box. */
export function autoSize(el: HTMLTextAreaElement | null): void {
  if (!el) return;
  el.style.height = 'auto';
  // An empty box shows its placeholder, which may wrap: fit that instead.
  const empty = el.value === '' && el.placeholder !== '';
  if (empty) el.value = el.placeholder;
  const h = el.scrollHeight;
  if (empty) el.value = '';
  if (h > 0) el.style.height = `${h + 2}px`;
}
