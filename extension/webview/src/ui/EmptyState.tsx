// What a new chat shows before its first message: what GoVibe does, what
// to type (examples that fill the input), and which model will answer.
import * as l10n from '@vscode/l10n';
import { useServices } from '../context';

export function EmptyState() {
  const { bridge, store } = useServices();
  const model = store.state.model;
  const examples = [
    l10n.t('Explain how this project is organised'),
    l10n.t('Find the failing test and fix it'),
    l10n.t('Add a test for the function in the open file'),
  ];
  return (
    <div class="empty" data-testid="empty">
      <span class="codicon codicon-sparkle" />
      <h2 class="empty-title">{l10n.t('What should we work on?')}</h2>
      <p>
        {l10n.t(
          'GoVibe works in this workspace: it reads the code, proposes edits for you to accept, runs the commands you allow, and takes a snapshot before each change so you can roll back.',
        )}
      </p>
      <div class="empty-label">{l10n.t('Try one of these, or type your own below:')}</div>
      <div class="empty-examples">
        {examples.map((e) => (
          <button key={e} type="button" class="empty-example" data-testid="empty-example" onClick={() => store.prefill(e)}>
            <span class="codicon codicon-comment" />
            <span>{e}</span>
          </button>
        ))}
      </div>
      <p class="empty-tips">{l10n.t('Type @ to attach a file or the problems list, / for commands.')}</p>
      <div class="empty-model" data-testid="empty-model">
        <span class="codicon codicon-chip" />
        <span>{model ? l10n.t('Answered by {0}', model.label) : l10n.t('No model chosen yet')}</span>
        <button type="button" class="link-btn" data-testid="empty-pick-model" onClick={() => bridge.post({ type: 'command', command: 'pickModel' })}>
          {model ? l10n.t('Change') : l10n.t('Choose model')}
        </button>
      </div>
    </div>
  );
}
