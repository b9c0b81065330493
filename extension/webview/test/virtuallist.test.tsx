// VirtualList while scrolling: a render a scroll asks for does not sum the
// row offsets again (only a measured height or new rows do: the sum walks
// every loaded row), and a row's button takes a click during a scroll.
import { render } from 'preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { VirtualList } from '../src/ui/VirtualList';

interface Item {
  id: string;
}

const items: Item[] = Array.from({ length: 500 }, (_, i) => ({ id: `r${i}` }));

async function settle() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

let root: HTMLDivElement | undefined;

afterEach(() => {
  if (root) render(null, root);
  root?.remove();
  root = undefined;
  vi.useRealTimers();
});

function mount(estimate: (it: Item) => number, onClick: (id: string) => void = () => {}) {
  root = document.createElement('div');
  document.body.appendChild(root);
  render(
    <VirtualList
      items={items}
      itemKey={(it: Item) => it.id}
      estimate={estimate}
      renderItem={(it: Item) => (
        <p>
          {it.id}
          <button type="button" data-id={it.id} onClick={() => onClick(it.id)} />
        </p>
      )}
      initialAtBottom={false}
    />,
    root,
  );
  return root.querySelector<HTMLElement>('[data-testid=transcript]')!;
}

async function scrollTo(list: HTMLElement, top: number) {
  list.scrollTop = top;
  list.dispatchEvent(new Event('scroll'));
  await settle();
}

describe('VirtualList while scrolling', () => {
  test('a far scroll renders the rows there without summing the offsets again', async () => {
    const estimate = vi.fn(() => 40);
    const list = mount(estimate);
    await settle();
    expect(list.textContent).toContain('r0');
    const sums = estimate.mock.calls.length;
    expect(sums).toBeGreaterThanOrEqual(items.length);
    await scrollTo(list, 12_000);
    expect(list.textContent).toContain('r300');
    expect(list.textContent).not.toContain('r0r1');
    expect(estimate.mock.calls.length).toBe(sums);
  });

  // The list scrolls by itself too (following a streaming answer): a
  // click on a row's button in the middle of scrolling must land.
  test('a row takes a click while the list scrolls', async () => {
    const clicked: string[] = [];
    const list = mount(() => 40, (id) => clicked.push(id));
    await settle();
    await scrollTo(list, 400);
    expect(list.className).toBe('vlist');
    const btn = list.querySelector<HTMLButtonElement>('button[data-id=r12]')!;
    btn.click();
    await scrollTo(list, 420);
    btn.click();
    expect(clicked).toEqual(['r12', 'r12']);
  });
});
