// The confirmations that are not about files or commands: a question from
// ask_human, an MCP tool call and a web fetch waiting for approval. Like the other
// cards they show everything without an inner scrollbar.
import * as l10n from '@vscode/l10n';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useServices } from '../context';
import { prettyJson } from '../format';
import type { ConfirmView } from '../store';
import { AlwaysAllowButton, AlwaysAllowRules, Kbd, ReasonInput, Resolved, autoSize, useResolve, useShortcuts } from './confirmParts';
import { Markdown } from './Markdown';

/** ask_human's reason for "answered, and done with this topic" (engine.ReasonDone). */
const REASON_DONE = 'done';

export function QuestionConfirm({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const resolve = useResolve();
  const { store } = useServices();
  const req = view.request;
  const [answer, setAnswer] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  // Sized to its placeholder at first, which wraps in a narrow sidebar.
  useLayoutEffect(() => autoSize(box.current), [view.resolved]);
  const text = answer.trim();
  // Send and a choice reply; the sidecar keeps the dialog open for the
  // agent's follow-up (confirm/closed "replied"). Done and Cancel end it.
  const reply = (r: string) => {
    resolve(req.id, 'accept', { answer: r });
    store.markReplied(req.id, r);
  };
  const send = () => {
    if (text) reply(text);
  };
  const done = () => resolve(req.id, 'accept', { answer: text, reason: REASON_DONE });
  const cancel = () => resolve(req.id, 'reject');
  useShortcuts(primary && !view.resolved, { KeyA: send, KeyR: cancel });
  return (
    <div
      class={`confirm-card confirm-question${primary ? ' primary' : ''}`}
      data-testid="confirm-card"
      data-kind="question"
      data-state={view.closed ? 'replied' : undefined}
    >
      <div class="confirm-head">
        <span class="codicon codicon-question" />
        <span class="confirm-title">{l10n.t('The agent has a question')}</span>
      </div>
      {req.thread && req.thread.length > 0 && (
        <div class="question-thread" data-testid="confirm-thread">
          {req.thread.map((x, i) => (
            <div key={i} class="question-exchange">
              <Markdown text={x.question} />
              <div>
                <span class="codicon codicon-reply" /> {x.reply}
              </div>
            </div>
          ))}
        </div>
      )}
      <div class="question-text" data-testid="confirm-question">
        <Markdown text={req.question ?? ''} />
      </div>
      {view.reply !== undefined ? (
        <div class="question-reply" data-testid="confirm-reply">
          <div>
            <span class="codicon codicon-reply" /> {l10n.t('You replied: {0}', view.reply)}
          </div>
          <div class="question-waiting">{l10n.t('Waiting for the agent…')}</div>
          {view.closed && (
            // The sidecar keeps the dialog open for a follow-up; the user
            // may end it now (the agent's next question opens a new one).
            <div class="confirm-actions">
              <vscode-button
                secondary
                data-testid="confirm-close-dialog"
                title={l10n.t('End this conversation with the agent')}
                onClick={() => resolve(req.id, 'accept', { reason: REASON_DONE })}
              >
                {l10n.t('Close')}
              </vscode-button>
            </div>
          )}
        </div>
      ) : view.resolved ? (
        <Resolved decision={view.resolved} />
      ) : (
        <>
          {req.options && req.options.length > 0 && (
            <div class="question-options">
              {req.options.map((o) => (
                <vscode-button key={o} secondary data-testid="confirm-option" onClick={() => reply(o)}>
                  {o}
                </vscode-button>
              ))}
            </div>
          )}
          <textarea
            ref={box}
            class="command-input"
            data-testid="confirm-answer"
            rows={1}
            // The keys are in the tooltip: the placeholder stays short.
            placeholder={l10n.t('Type your answer')}
            title={l10n.t('Enter sends, Shift+Enter adds a new line')}
            aria-label={l10n.t('Your answer')}
            value={answer}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
              e.preventDefault();
              send();
            }}
            onInput={(e) => {
              const el = e.currentTarget as HTMLTextAreaElement;
              setAnswer(el.value);
              autoSize(el);
            }}
          />
          <div class="confirm-actions">
            <vscode-button data-testid="confirm-allow" disabled={!text} title={primary ? 'Alt+A' : undefined} onClick={send}>
              {l10n.t('Send')} <Kbd k="A" show={primary} />
            </vscode-button>
            <vscode-button secondary data-testid="confirm-done" title={l10n.t('Send the answer and tell the agent this topic is settled')} onClick={done}>
              {l10n.t('Done')}
            </vscode-button>
            <vscode-button secondary data-testid="confirm-deny" title={primary ? 'Alt+R' : undefined} onClick={cancel}>
              {l10n.t('Cancel')} <Kbd k="R" show={primary} />
            </vscode-button>
          </div>
        </>
      )}
    </div>
  );
}

/** The browser sub-agent's tool (tools.BrowserToolName). */
const BROWSER_TOOL = 'browser_sub_agent';

/**
 * Splits a namespaced MCP tool name, mcp__<server>__<tool>, as the sidecar
 * builds it (mcpclient.ToolName); anything else is shown whole as the tool.
 */
export function splitToolName(name: string): { server?: string; tool: string } {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  return m ? { server: m[1], tool: m[2] } : { tool: name };
}

/**
 * An MCP tool call: the sidecar names the server and tool in `server` and
 * `tool` (older sidecars only in `command`, mcp__server__tool) and puts the
 * arguments (JSON) in `question`.
 */
export function ToolConfirm({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const req = view.request;
  const split = splitToolName(req.command ?? '');
  const server = req.server || split.server;
  const tool = req.tool || split.tool;
  const args = req.question ? prettyJson(req.question) : '';
  // browser_sub_agent is confirmed like a web fetch, on this card.
  const browser = !server && tool === BROWSER_TOOL;
  return (
    <div class={`confirm-card confirm-tool${primary ? ' primary' : ''}`} data-testid="confirm-card" data-kind="tool">
      <div class="confirm-head">
        <span class={`codicon ${browser ? 'codicon-globe' : 'codicon-plug'}`} />
        <span class="confirm-title" data-testid="confirm-tool-title">
          {server
            ? l10n.t('Call {0} on the MCP server {1}?', tool, server)
            : browser
              ? l10n.t('Let the browser agent ({0}) open web pages?', tool)
              : l10n.t('Call the tool {0}?', tool)}
        </span>
      </div>
      {args && (
        <pre class="tool-args" data-testid="confirm-tool-args">
          {args}
        </pre>
      )}
      <AllowDeny view={view} primary={primary} />
    </div>
  );
}

/**
 * A web_fetch waiting for approval: the whole URL (it can carry data out
 * of the workspace, so it is shown in full, wrapped) and the names of the
 * headers it would send; "Always allow" adds the host's rule.
 */
export function FetchConfirm({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const req = view.request;
  return (
    <div class={`confirm-card confirm-fetch${primary ? ' primary' : ''}`} data-testid="confirm-card" data-kind="fetch">
      <div class="confirm-head">
        <span class="codicon codicon-globe" />
        <span class="confirm-title">{l10n.t('Fetch this web page?')}</span>
      </div>
      <pre class="tool-args" data-testid="confirm-url">
        {req.url ?? ''}
      </pre>
      {req.headers && req.headers.length > 0 && (
        <div class="muted" data-testid="confirm-headers">
          {l10n.t('Sends the headers: {0}', req.headers.join(', '))}
        </div>
      )}
      <AllowDeny view={view} primary={primary} />
    </div>
  );
}

/**
 * The answer block of a card whose only choices are Allow, Always allow
 * and Deny (MCP tool calls, web fetches): a reason box, the buttons with
 * their Alt shortcuts on the primary card, and the rules "Always allow"
 * would add; the decision once it is made.
 */
function AllowDeny({ view, primary }: { view: ConfirmView; primary: boolean }) {
  const resolve = useResolve();
  const req = view.request;
  const [reason, setReason] = useState('');
  const allow = () => resolve(req.id, 'accept', { reason });
  const deny = () => resolve(req.id, 'reject', { reason });
  useShortcuts(primary && !view.resolved, { KeyA: allow, KeyR: deny });
  if (view.resolved) return <Resolved decision={view.resolved} />;
  return (
    <>
      <ReasonInput reason={reason} setReason={setReason} onFocus={() => undefined} />
      <div class="confirm-actions">
        <vscode-button data-testid="confirm-allow" title={primary ? 'Alt+A' : undefined} onClick={allow}>
          {l10n.t('Allow')} <Kbd k="A" show={primary} />
        </vscode-button>
        <AlwaysAllowButton rules={req.allowRules} onClick={() => resolve(req.id, 'accept', { reason, alwaysAllow: true })} />
        <vscode-button secondary data-testid="confirm-deny" title={primary ? 'Alt+R' : undefined} onClick={deny}>
          {l10n.t('Deny')} <Kbd k="R" show={primary} />
        </vscode-button>
      </div>
      <AlwaysAllowRules rules={req.allowRules} />
    </>
  );
}
