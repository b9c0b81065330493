import { describe, expect, it } from 'vitest';
import { pickItems } from '../src/modelPickItems';

describe('model picker items', () => {
  it('shows each profile with its window and price and marks the current one', () => {
    const items = pickItems(
      [
        { name: 'DeepSeek', model: 'deepseek-reasoner', baseUrl: 'https://api.deepseek.com', contextWindow: 128000, priceInput: 0.28, priceOutput: 0.42 },
        { name: 'reviewer', model: 'gpt-4.1-mini', contextWindow: 1047576, reasoningEffort: 'low' },
        { model: 'qwen2.5-coder:7b' },
        {},
      ],
      'deepseek-reasoner',
    );
    expect(items.map((i) => i.value)).toEqual(['DeepSeek', 'reviewer', 'qwen2.5-coder:7b']);
    expect(items[0].description).toBe('window 128k · $0.28 in / $0.42 out per M');
    expect(items[0].picked).toBe(true);
    expect(items[1].description).toBe('window 1M · effort low');
    expect(items[2].description).toBe('');
    expect(items[0].detail).toBe('deepseek-reasoner @ https://api.deepseek.com');
  });
});
