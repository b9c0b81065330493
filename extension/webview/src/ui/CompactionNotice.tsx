// The divider a compaction leaves in the chat: how much it saved, how many
// messages the summary replaced, and what was kept word for word after it
// (the request, the todo list, the user's decisions), with the summary and
// the kept block behind "Show summary".
import * as l10n from '@vscode/l10n';
import { useState } from 'preact/hooks';
import { formatTokens } from '../format';
import type { CompactionBlock, KeptCounts } from '../model';
import { keptSections, snapshotMarkdown } from '../snapshot';
import { Markdown } from './Markdown';

/** What was kept, in words: "your request, the todo list (2 of 5 done), 3 decisions". */
export function keptText(k: KeptCounts): string {
  const parts: string[] = [];
  if (k.request) parts.push(l10n.t('your request'));
  if (k.todos) parts.push(l10n.t('the todo list ({0} of {1} done)', k.todosDone ?? 0, k.todos));
  if (k.decisions) parts.push(k.decisions === 1 ? l10n.t('1 decision of yours') : l10n.t('{0} decisions of yours', k.decisions));
  return parts.join(', ');
}

export function CompactionNotice({ block }: { block: CompactionBlock }) {
  const [show, setShow] = useState(false);
  const { summary, savedTokens: saved, summarised, kept, keptText: keptBlock } = block;
  const what = kept ? keptText(kept) : '';
  return (
    <div class="compaction" data-testid="compaction">
      <div class="compaction-line">
        <span>
          {saved
            ? l10n.t('Earlier messages were summarised (saved {0} tokens)', formatTokens(saved))
            : l10n.t('Earlier messages were summarised')}
        </span>
        {summary && (
          <button type="button" class="link-btn" data-testid="compaction-toggle" onClick={() => setShow(!show)}>
            {show ? l10n.t('Hide summary') : l10n.t('Show summary')}
          </button>
        )}
      </div>
      {(!!summarised || what) && (
        <div class="compaction-detail" data-testid="compaction-detail">
          {!!summarised && <span data-testid="compaction-summarised">{l10n.t('{0} messages summarised', summarised)}</span>}
          {!!summarised && what && ' · '}
          {what && <span data-testid="compaction-kept">{l10n.t('kept word for word: {0}', what)}</span>}
        </div>
      )}
      {show && <Markdown text={snapshotMarkdown(summary)} />}
      {show && keptBlock && <KeptBlock text={keptBlock} />}
    </div>
  );
}

/** The kept block as labelled sections, or as sent when it has another shape. */
function KeptBlock({ text }: { text: string }) {
  const sections = keptSections(text);
  if (!sections) {
    return (
      <pre class="compaction-kept" data-testid="compaction-kept-text">
        {text}
      </pre>
    );
  }
  return (
    <div class="compaction-kept" data-testid="compaction-kept-text">
      {sections.map((s) => (
        <div class="compaction-kept-section" key={s.label}>
          <strong>{s.label}</strong>
          <pre>{s.text}</pre>
        </div>
      ))}
    </div>
  );
}
