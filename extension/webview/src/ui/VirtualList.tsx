import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: T[];
  itemKey: (item: T) => string;
  estimate: (item: T) => number;
  renderItem: (item: T) => ComponentChildren;
  /** Called when the user scrolls near the top (to page in older items). */
  onNearTop?: () => void;
  initialScrollTop?: number;
  initialAtBottom?: boolean;
  onScrollState?: (scrollTop: number, atBottom: boolean) => void;
  /** Each change scrolls to the bottom and sticks there again (a send, "jump to latest"). */
  pinTick?: number;
  overscan?: number;
}

const NEAR_TOP_PX = 200;
const BOTTOM_SLACK_PX = 24;

/**
 * Renders only the rows in view plus an overscan, with spacers standing in
 * for the rest. Row heights are measured once rendered and estimated until
 * then; the first visible row is kept in place when heights above it change
 * or older rows are prepended, and the list sticks to the bottom while the
 * user is there.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, itemKey, estimate, renderItem, overscan = 8 } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const pos = useRef({ top: props.initialScrollTop ?? 0, atBottom: props.initialAtBottom ?? true });
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  /** scrollTop as last set or seen here, to notice scrolls not yet handled. */
  const lastTop = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);
  const reported = useRef<{ top: number; atBottom: boolean } | null>(null);
  const pinSeen = useRef(props.pinTick);
  if (props.pinTick !== pinSeen.current) {
    // Set during render so this very render lays out the bottom rows.
    pinSeen.current = props.pinTick;
    pos.current = { top: pos.current.top, atBottom: true };
    anchor.current = null;
  }

  // Recomputed every render: a few thousand additions cost far less than a
  // frame, and it keeps heights measured since the last render in effect.
  const offsets = new Float64Array(items.length + 1);
  for (let i = 0; i < items.length; i++) {
    offsets[i + 1] = offsets[i] + (heights.current.get(itemKey(items[i])) ?? estimate(items[i]));
  }

  const viewport = scroller.current?.clientHeight || window.innerHeight || 800;
  const top = pos.current.atBottom ? Math.max(0, offsets[items.length] - viewport) : pos.current.top;
  const first = Math.max(0, findIndex(offsets, top) - overscan);
  const last = Math.min(items.length, findIndex(offsets, top + viewport) + 1 + overscan);

  const measure = useCallback(() => {
    const root = scroller.current;
    if (!root) return;
    let changed = false;
    for (const el of Array.from(root.querySelectorAll<HTMLElement>('.vrow'))) {
      const key = el.dataset.key!;
      const h = el.offsetHeight;
      if (h > 0 && heights.current.get(key) !== h) {
        heights.current.set(key, h);
        changed = true;
      }
    }
    if (changed) rerender(0);
  }, []);

  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(() => measure());
    return () => observer.current?.disconnect();
  }, [measure]);

  /** Takes the scroll position from the DOM into pos and anchor. */
  const readScroll = (root: HTMLElement): number => {
    const t = root.scrollTop;
    lastTop.current = t;
    // Judged against the model's total height so it holds before layout settles.
    const atBottom = t + (root.clientHeight || window.innerHeight || 800) >= offsets[items.length] - BOTTOM_SLACK_PX;
    pos.current = { top: t, atBottom };
    const i = findIndex(offsets, t);
    anchor.current = i < items.length ? { key: itemKey(items[i]), delta: t - offsets[i] } : null;
    return t;
  };

  useLayoutEffect(() => {
    const root = scroller.current;
    if (!root) return;
    // The user may have scrolled since the last render without the scroll
    // event having run yet; honour that before pinning or anchoring.
    if (Math.abs(root.scrollTop - lastTop.current) > 1) readScroll(root);
    for (const el of Array.from(root.querySelectorAll<HTMLElement>('.vrow'))) {
      observer.current?.observe(el);
    }
    measure();
    if (pos.current.atBottom) {
      root.scrollTop = root.scrollHeight;
    } else if (anchor.current) {
      const i = items.findIndex((it) => itemKey(it) === anchor.current!.key);
      if (i >= 0) {
        const want = offsets[i] + anchor.current.delta;
        if (Math.abs(root.scrollTop - want) > 1) root.scrollTop = want;
        pos.current.top = want;
      }
    } else if (root.scrollTop !== pos.current.top) {
      root.scrollTop = pos.current.top;
    }
    lastTop.current = root.scrollTop;
    // A programmatic scroll (pinning, anchoring) fires no scroll event
    // before a reload may come: report where the list really is now.
    report(root.scrollTop, pos.current.atBottom);
    // Too little content to scroll means no scroll event will ever ask for more.
    if (offsets[items.length] < viewport) props.onNearTop?.();
  });

  const report = (top: number, atBottom: boolean) => {
    const r = reported.current;
    if (r && r.atBottom === atBottom && Math.abs(r.top - top) < 1) return;
    reported.current = { top, atBottom };
    props.onScrollState?.(top, atBottom);
  };

  const onScroll = () => {
    const t = readScroll(scroller.current!);
    report(t, pos.current.atBottom);
    if (t < NEAR_TOP_PX) props.onNearTop?.();
    rerender(0);
  };

  // At scrollTop 0 a wheel or key press upwards fires no scroll event, so
  // older pages would never load; these ask for them directly.
  const atTop = () => (scroller.current?.scrollTop ?? 0) < NEAR_TOP_PX;
  const onWheel = (e: WheelEvent) => {
    if (e.deltaY < 0 && atTop()) props.onNearTop?.();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.key === 'PageUp' || e.key === 'ArrowUp' || e.key === 'Home') && atTop()) props.onNearTop?.();
  };

  const rows = [];
  for (let i = first; i < last; i++) {
    const it = items[i];
    const key = itemKey(it);
    rows.push(
      <div class="vrow" key={key} data-key={key}>
        {renderItem(it)}
      </div>,
    );
  }
  return (
    <div class="vlist" ref={scroller} onScroll={onScroll} onWheel={onWheel} onKeyDown={onKeyDown} tabIndex={0} data-testid="transcript">
      <div class="vlist-inner">
        <div class="vspacer" style={{ height: `${offsets[first]}px` }} />
        {rows}
        <div class="vspacer" style={{ height: `${offsets[items.length] - offsets[last]}px` }} />
      </div>
    </div>
  );
}

/** Index of the row containing y (binary search over prefix offsets). */
function findIndex(off: Float64Array, y: number): number {
  let lo = 0;
  let hi = off.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (off[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.min(lo, Math.max(0, off.length - 2));
}
