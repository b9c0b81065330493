import * as l10n from '@vscode/l10n';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useServices } from '../context';

interface Props {
  sessionId?: string;
  running: boolean;
  editEnabled: boolean;
  focusTick: number;
  disabled: boolean;
}

export function Composer({ sessionId, running, editEnabled, focusTick, disabled }: Props) {
  const { bridge, store } = useServices();
  const [text, setText] = useState(bridge.ui.draft);
  const area = useRef<HTMLTextAreaElement>(null);
  const composing = useRef(false);

  useEffect(() => {
    if (focusTick > 0) area.current?.focus();
  }, [focusTick]);

  // Bound directly: Preact would register onCompositionEnd case-sensitively.
  useEffect(() => {
    const el = area.current!;
    const on = () => (composing.current = true);
    const off = () => (composing.current = false);
    el.addEventListener('compositionstart', on);
    el.addEventListener('compositionend', off);
    return () => {
      el.removeEventListener('compositionstart', on);
      el.removeEventListener('compositionend', off);
    };
  }, []);

  const update = (v: string) => {
    setText(v);
    bridge.update({ draft: v });
    // Written at once, not debounced like scrolling: VS Code may dispose a
    // hidden or re-laid-out view at any moment, and the reloaded view must
    // get back every character typed.
    bridge.flush();
  };

  const send = () => {
    // The element, not the last render, holds what was typed just now.
    const t = (area.current?.value ?? text).trim();
    if (!t || disabled) return;
    bridge.post({ type: 'send', text: t, ...(sessionId ? { sessionId } : {}) });
    store.markSent();
    if (area.current) area.current.value = '';
    update('');
    // A reload right after a send must not bring the sent text back.
    bridge.flush();
  };

  return (
    <footer class="composer">
      <textarea
        ref={area}
        class="chat-input"
        data-testid="chat-input"
        rows={3}
        value={text}
        placeholder={running ? l10n.t('Add a side note while the agent works…') : l10n.t('Ask GoVibe… (Enter to send, Shift+Enter for a new line)')}
        aria-label={l10n.t('Message')}
        onInput={(e) => update((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || e.shiftKey) return;
          // Enter that confirms an IME candidate must not send the message.
          if (e.isComposing || composing.current || e.keyCode === 229) return;
          e.preventDefault();
          send();
        }}
      />
      <div class="composer-bar">
        <button
          type="button"
          class={`icon-btn edit-toggle${editEnabled ? ' on' : ''}`}
          data-testid="edit-toggle"
          aria-pressed={editEnabled}
          disabled={!sessionId}
          title={editEnabled ? l10n.t('File edits allowed: click to make the agent read-only') : l10n.t('Read-only: click to let the agent edit files')}
          onClick={() => {
            if (!sessionId) return;
            const next = !editEnabled;
            store.setEditEnabled(next);
            bridge.post({ type: 'setEditEnabled', sessionId, enabled: next });
          }}
        >
          {/* Codicons, not emoji: an emoji lock renders as an empty box where the font lacks it. */}
          <span aria-hidden="true" class={`codicon ${editEnabled ? 'codicon-unlock' : 'codicon-lock'}`} />
          <span class="edit-label">{editEnabled ? l10n.t('Edits on') : l10n.t('Read-only')}</span>
        </button>
        <span class="spacer" />
        {running && sessionId && (
          <vscode-button secondary data-testid="stop" onClick={() => bridge.post({ type: 'stop', sessionId })}>
            <span class="codicon codicon-debug-stop" /> {l10n.t('Stop')}
          </vscode-button>
        )}
        <vscode-button data-testid="send" disabled={disabled || !text.trim()} onClick={send}>
          <span class="codicon codicon-send" /> {l10n.t('Send')}
        </vscode-button>
      </div>
    </footer>
  );
}
