// The popup over the chat input: slash commands with their descriptions,
// or @-mention targets. Keyboard handling stays in the Composer (the focus
// never leaves the textarea); this only renders and takes clicks.
import * as l10n from '@vscode/l10n';
import { useEffect, useRef } from 'preact/hooks';
import type { Item, TokenKind } from '../complete';

interface Props {
  kind: TokenKind;
  items: Item[];
  selected: number;
  partial?: boolean;
  onPick: (i: number) => void;
}

export function CompletionList({ kind, items, selected, partial, onPick }: Props) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    // jsdom (the unit tests) has no scrollIntoView.
    list.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [selected]);
  return (
    <div class="completion" data-testid={kind === 'command' ? 'command-completion' : 'mention-completion'}>
      {items.length === 0 ? (
        <div class="muted completion-empty">{kind === 'command' ? l10n.t('No matching command') : l10n.t('No matching file')}</div>
      ) : (
        <ul ref={list} role="listbox" aria-label={kind === 'command' ? l10n.t('Commands') : l10n.t('Mentions')}>
          {items.map((it, i) => (
            <li
              key={it.insert + i}
              role="option"
              aria-selected={i === selected}
              class={`completion-item${i === selected ? ' selected' : ''}`}
              data-testid="completion-item"
              data-insert={it.insert}
              // mousedown, not click: the textarea must keep its focus and caret.
              onMouseDown={(e) => {
                e.preventDefault();
                onPick(i);
              }}
            >
              <span class={`codicon ${it.icon}`} aria-hidden="true" />
              <span class="completion-label">{it.label}</span>
              {it.detail && <span class="completion-detail muted">{it.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {partial && <div class="muted completion-empty">{l10n.t('Type more to narrow the search')}</div>}
    </div>
  );
}
