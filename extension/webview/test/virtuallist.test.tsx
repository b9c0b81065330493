// VirtualList while scrolling: a render a scroll asks for does not sum the
// row offsets again (only a measured height or new rows do: the sum walks
// every loaded row), and the rows take no pointer events until the
// scrolling has stopped for SCROLL_IDLE_MS.
import { render } from 'preact';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { SCROLL_IDLE_MS, VirtualList } from '../src/ui/VirtualList';

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

function mount(estimate: (it: Item) => number) {
  root = document.createElement('div');
  document.body.appendChild(root);
  render(
    <VirtualList items={items} itemKey={(it: Item) => it.id} estimate={estimate} renderItem={(it: Item) => <p>{it.id}</p>} initialAtBottom={false} />,
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

  test('rows take no pointer events while the list scrolls, and do again once it stops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const list = mount(() => 40);
    await settle();
    expect(list.classList.contains('scrolling')).toBe(false);
    await scrollTo(list, 400);
    expect(list.classList.contains('scrolling')).toBe(true);
    vi.advanceTimersByTime(SCROLL_IDLE_MS - 50);
    // Another scroll event before the pause is over keeps it scrolling.
    await scrollTo(list, 800);
    vi.advanceTimersByTime(SCROLL_IDLE_MS - 50);
    expect(list.classList.contains('scrolling')).toBe(true);
    vi.advanceTimersByTime(60);
    expect(list.classList.contains('scrolling')).toBe(false);
    // A click right after lands again (nothing left pending).
    expect(vi.getTimerCount()).toBe(0);
  });
});
