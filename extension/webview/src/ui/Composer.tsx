import * as l10n from '@vscode/l10n';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { activeToken, applyPick, chipIcon, commandItems, mentionItems, parseMentions, removeMention, type Item, type Token } from '../complete';
import { useServices } from '../context';
import { CompletionList } from './CompletionList';
import { modeCanEdit } from './ModePicker';
import { ActiveSkillChips, SkillsButton, SkillsPicker } from './SkillsPicker';

interface Props {
  sessionId?: string;
  running: boolean;
  editEnabled: boolean;
  focusTick: number;
  disabled: boolean;
}

// lastReqId numbers the composer's asks for the webview's lifetime, not a
// mount's: the store drops answers older than the one it keeps, so ids
// must keep growing when the composer is mounted again.
let lastReqId = 0;

/**
 * The input's focus and selection while the view is rebuilt (the App
 * remounts when the language's bundle arrives or changes): the new input
 * takes them before the next keystroke, which would otherwise go nowhere.
 */
let kept: { start: number; end: number } | undefined;

export function Composer({ sessionId, running, editEnabled, focusTick, disabled }: Props) {
  const { bridge, store } = useServices();
  const [text, setText] = useState(bridge.ui.draft);
  const [caret, setCaret] = useState(-1);
  const [selected, setSelected] = useState(0);
  // Escape closes the list for the token it was pressed in.
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [pickerOpen, setPickerOpen] = useState(false);
  const skillsButton = useRef<HTMLButtonElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const composing = useRef(false);
  const asked = useRef<{ cmd?: number; files?: number; query?: string }>({});
  const st = store.state;

  useEffect(() => {
    if (focusTick > 0) area.current?.focus();
  }, [focusTick]);

  useLayoutEffect(() => {
    const el = area.current!;
    if (kept) {
      el.focus();
      el.setSelectionRange(kept.start, kept.end);
      kept = undefined;
    }
    return () => {
      if (el.ownerDocument.activeElement !== el) return;
      kept = { start: el.selectionStart, end: el.selectionEnd };
      // The new input takes it in the same render; an input gone for good
      // (the view unmounted) leaves nothing behind.
      queueMicrotask(() => (kept = undefined));
    };
  }, []);

  // Enter pressed in the page's composer before this one mounted (boot.ts).
  useEffect(() => {
    if (st.sendOnMount) send();
  }, [st.sendOnMount]);

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

  const raw = caret >= 0 ? activeToken(text, caret) : undefined;
  const tok: Token | undefined = raw && dismissed !== `${raw.kind}:${raw.start}` ? raw : undefined;

  // Ask the host for what the token needs: the command list once per
  // opening of the list, files per query. Answers to older asks are ignored.
  useEffect(() => {
    if (tok?.kind === 'command' && asked.current.cmd === undefined) {
      asked.current.cmd = ++lastReqId;
      bridge.post({ type: 'listCommands', reqId: asked.current.cmd });
    }
    if (tok?.kind !== 'command') asked.current.cmd = undefined;
    if (tok?.kind === 'mention' && asked.current.query !== tok.query) {
      asked.current.query = tok.query;
      asked.current.files = ++lastReqId;
      bridge.post({ type: 'completeFiles', reqId: asked.current.files, query: tok.query });
    }
    if (tok?.kind !== 'mention') asked.current.query = undefined;
  }, [tok?.kind, tok?.query]);
  useEffect(() => setSelected(0), [tok?.kind, tok?.query]);

  let items: Item[] = [];
  let partial = false;
  if (tok?.kind === 'command') {
    const cmds = st.commands && st.commands.reqId === asked.current.cmd ? st.commands.list : [];
    items = commandItems(cmds, tok.query);
  } else if (tok?.kind === 'mention') {
    const f = st.files && st.files.reqId === asked.current.files ? st.files : undefined;
    items = mentionItems(tok.query, f?.items ?? [], {
      problems: l10n.t('Workspace problems (diagnostics)'),
      'git-changes': l10n.t('The working tree’s diff'),
      terminal: l10n.t('The active terminal’s recent output'),
      url: l10n.t('Fetch this page'),
    });
    partial = !!f?.partial;
  }
  const listOpen = !!tok && (items.length > 0 || tok.query.length > 0);

  const update = (v: string) => {
    setText(v);
    bridge.update({ draft: v });
    // Written at once, not debounced like scrolling: VS Code may dispose a
    // hidden or re-laid-out view at any moment, and the reloaded view must
    // get back every character typed.
    bridge.flush();
  };

  const syncCaret = () => setCaret(area.current?.selectionStart ?? -1);

  // An example picked in the empty chat: in the input, ready to edit or send.
  const prefill = st.prefill;
  useEffect(() => {
    const el = area.current;
    if (!prefill || !el) return;
    update(prefill.text);
    el.focus();
    el.setSelectionRange(prefill.text.length, prefill.text.length);
  }, [prefill?.tick]);

  const pick = (i: number) => {
    const it = items[i];
    if (!tok || !it) return;
    const next = applyPick(text, tok, it);
    update(next.text);
    const el = area.current;
    if (el) {
      el.value = next.text;
      el.setSelectionRange(next.caret, next.caret);
      el.focus();
    }
    setCaret(next.caret);
  };

  const send = () => {
    // The element, not the last render, holds what was typed just now.
    const t = (area.current?.value ?? text).trim();
    if (!t || disabled) return;
    bridge.post({ type: 'send', text: t, ...(sessionId ? { sessionId } : {}) });
    store.markSent();
    if (area.current) area.current.value = '';
    update('');
    setCaret(-1);
    // A reload right after a send must not bring the sent text back.
    bridge.flush();
  };

  const canEdit = modeCanEdit(st.mode);
  const editsOn = canEdit && editEnabled;
  const chips = parseMentions(text);
  const hasSkills = (st.skills ?? []).some((s) => s.active);

  return (
    <footer class="composer">
      {listOpen && tok && <CompletionList kind={tok.kind} items={items} selected={selected} partial={partial} onPick={pick} />}
      {pickerOpen && <SkillsPicker sessionId={sessionId} skills={st.skills} error={st.skillsError} open onToggle={setPickerOpen} buttonRef={skillsButton} />}
      {(chips.length > 0 || hasSkills) && (
        <div class="composer-chips" data-testid="composer-chips">
          <ActiveSkillChips sessionId={sessionId} skills={st.skills} />
          {chips.map((c) => (
            <span key={c.start} class={`chip chip-${c.kind}`} data-testid="mention-chip" data-kind={c.kind} title={c.raw}>
              <span class={`codicon ${chipIcon(c.kind)}`} aria-hidden="true" />
              <span class="chip-label">{c.raw.slice(1)}</span>
              <button
                type="button"
                class="chip-x"
                aria-label={l10n.t('Remove {0}', c.raw)}
                onClick={() => {
                  const v = removeMention(text, c);
                  if (area.current) area.current.value = v;
                  update(v);
                }}
              >
                <span class="codicon codicon-close" />
              </button>
            </span>
          ))}
        </div>
      )}
      <textarea
        ref={area}
        class="chat-input"
        data-testid="chat-input"
        rows={3}
        value={text}
        placeholder={running ? l10n.t('Add a side note while the agent works…') : l10n.t('Ask GoVibe… (/ for commands, @ to attach)')}
        aria-label={l10n.t('Message')}
        aria-autocomplete="list"
        onInput={(e) => {
          update((e.currentTarget as HTMLTextAreaElement).value);
          syncCaret();
        }}
        onClick={syncCaret}
        onKeyUp={(e) => {
          if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') {
            if (!(listOpen && (e.key === 'ArrowUp' || e.key === 'ArrowDown'))) syncCaret();
          }
        }}
        onBlur={() => setCaret(-1)}
        onKeyDown={(e) => {
          // Enter that confirms an IME candidate must not send or pick.
          if (e.isComposing || composing.current || e.keyCode === 229) return;
          if (listOpen && tok) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const n = Math.max(items.length, 1);
              setSelected((s) => (s + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
              return;
            }
            if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && items.length > 0) {
              e.preventDefault();
              pick(selected);
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setDismissed(`${tok.kind}:${tok.start}`);
              return;
            }
          }
          if (e.key !== 'Enter' || e.shiftKey) return;
          e.preventDefault();
          send();
        }}
      />
      <div class={`composer-bar${running && sessionId ? ' running' : ''}`}>
        <button
          type="button"
          class={`icon-btn edit-toggle${editsOn ? ' on' : ''}`}
          data-testid="edit-toggle"
          aria-pressed={editsOn}
          // Plan mode never edits (the plan does, once run in Agent mode):
          // the switch is shown off and locked there, saying why.
          disabled={!canEdit}
          title={
            !canEdit
              ? l10n.t('Plan mode does not edit: the plan is proposed first. Run the plan to make its edits.')
              : editEnabled
                ? l10n.t('File edits allowed: click to make the agent read-only')
                : l10n.t('Read-only: click to let the agent edit files')
          }
          onClick={() => {
            const next = !editEnabled;
            store.setEditEnabled(next);
            // A new chat has no session yet: the host creates it.
            bridge.post({ type: 'setEditEnabled', ...(sessionId ? { sessionId } : {}), enabled: next });
          }}
        >
          {/* Codicons, not emoji: an emoji lock renders as an empty box where the font lacks it. */}
          <span aria-hidden="true" class={`codicon ${editsOn ? 'codicon-unlock' : 'codicon-lock'}`} />
          <span class="edit-label">{editsOn ? l10n.t('Edits on') : l10n.t('Read-only')}</span>
        </button>
        <SkillsButton sessionId={sessionId} running={running} skills={st.skills} open={pickerOpen} onToggle={setPickerOpen} buttonRef={skillsButton} />
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
