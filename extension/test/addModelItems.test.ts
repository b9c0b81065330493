import { describe, expect, it } from 'vitest';
import { ENTER_ID, checkModelId, modelItems } from '../src/addModelItems';

const words = { window: (s: string) => `window ${s}`, enter: 'Enter a model id…', enterDetail: 'a model the list does not show' };

describe('Add Model: the model step', () => {
  it('shows each listed model with its window, then an entry to type an id', () => {
    const items = modelItems([{ id: 'glm-4.6', contextWindow: 200000 }, { id: 'qwen3-coder-plus', contextWindow: 1_000_000 }, { id: 'local-model' }], words);
    expect(items.map((i) => [i.label, i.description, i.id])).toEqual([
      ['glm-4.6', 'window 200k', 'glm-4.6'],
      ['qwen3-coder-plus', 'window 1M', 'qwen3-coder-plus'],
      ['local-model', '', 'local-model'],
      ['Enter a model id…', 'a model the list does not show', ENTER_ID],
    ]);
  });

  it('still offers to type an id when the endpoint lists nothing (Ollama with no model pulled)', () => {
    expect(modelItems([], words).map((i) => i.id)).toEqual([ENTER_ID]);
  });

  it('refuses an empty or spaced model id with a reason', () => {
    expect(checkModelId('   ')).toBe('empty');
    expect(checkModelId('gpt 4')).toBe('spaces');
    expect(checkModelId(' qwen2.5-coder:7b ')).toBeUndefined();
  });
});
