import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useMemo, useReducer, useRef } from 'preact/hooks';

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
  /** Rows rendered beyond the view, in viewport heights on each side. */
  overscan?: number;
}

const NEAR_TOP_PX = 200;
const BOTTOM_SLACK_PX = 24;

/**
 * Renders only the rows in view plus an overscan, with spacers standing in
 * for the rest. Row heights come from a ResizeObserver (read after layout,
 * so measuring never forces one) and are estimated until then; the first
 * visible row is kept in place when heights above it change or older rows
 * are prepended, and the list sticks to the bottom while the user is there.
 *
 * Scrolling is cheap on purpose: a scroll inside the rendered window only
 * records the position; the list re-renders when the view comes within
 * half an overscan of the window's edge, and then renders a whole overscan
 * ahead, so most frames of a long scroll run no render at all. Such a
 * render leaves the row offsets alone (they are summed again only when a
 * height was measured or the rows changed). Rows keep taking pointer
 * events while the list scrolls: the list also scrolls by itself to follow
 * a streaming answer, and a click on a card then must not be lost.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, itemKey, estimate, renderItem, overscan = 1 } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [heightsVersion, heightsChanged] = useReducer((x: number) => x + 1, 0);
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const pos = useRef({ top: props.initialScrollTop ?? 0, atBottom: props.initialAtBottom ?? true });
  /** The first visible row and where the view's top was within it. */
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  /** scrollTop as last set or seen here, to notice scrolls not yet handled. */
  const lastTop = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  const reported = useRef<{ top: number; atBottom: boolean } | null>(null);
  /** The pixel range the last render covered, [from, to). */
  const window_ = useRef({ from: 0, to: 0 });
  const pinSeen = useRef(props.pinTick);
  if (props.pinTick !== pinSeen.current) {
    // Set during render so this very render lays out the bottom rows.
    pinSeen.current = props.pinTick;
    pos.current = { top: pos.current.top, atBottom: true };
    anchor.current = null;
  }

  // Prefix sums of row heights: recomputed only when the rows or a
  // measured height changed, not on every scroll.
  const offsets = useMemo(() => {
    const off = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) {
      off[i + 1] = off[i] + (heights.current.get(itemKey(items[i])) ?? estimate(items[i]));
    }
    return off;
  }, [items, heightsVersion]);
  const total = offsets[items.length];
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;

  // The scroller's height, kept by the ResizeObserver: reading clientHeight
  // while rendering could force a layout.
  const viewportH = useRef(0);
  const viewport = viewportH.current || scroller.current?.clientHeight || window.innerHeight || 800;
  const top = pos.current.atBottom ? Math.max(0, total - viewport) : pos.current.top;
  const ahead = viewport * overscan;
  const first = findIndex(offsets, Math.max(0, top - ahead));
  const last = Math.min(items.length, findIndex(offsets, top + viewport + ahead) + 1);
  window_.current = { from: offsets[first], to: offsets[last] };

  // A layout effect, declared first, so the observer exists when the rows
  // of the first render are handed to it below.
  useLayoutEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      // Called after layout and before paint: reading sizes here is free.
      let changed = false;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        if (!el.isConnected) continue;
        if (el === scroller.current) {
          const v = el.clientHeight;
          if (v > 0 && v !== viewportH.current) {
            viewportH.current = v;
            changed = true;
          }
          continue;
        }
        const h = e.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight;
        const key = el.dataset.key!;
        if (h > 0 && Math.abs((heights.current.get(key) ?? -1) - h) >= 0.5) {
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) heightsChanged(0);
    });
    observer.current = ro;
    if (scroller.current) ro.observe(scroller.current);
    return () => {
      ro.disconnect();
    };
  }, []);

  /** Takes the scroll position from the DOM into pos and anchor. */
  const readScroll = (root: HTMLElement): number => {
    const t = root.scrollTop;
    const off = offsetsRef.current;
    lastTop.current = t;
    // Judged against the model's total height so it holds before layout settles.
    const atBottom = t + (viewportH.current || root.clientHeight || window.innerHeight || 800) >= off[off.length - 1] - BOTTOM_SLACK_PX;
    pos.current = { top: t, atBottom };
    const i = findIndex(off, t);
    anchor.current = i < items.length ? { key: itemKey(items[i]), delta: t - off[i] } : null;
    return t;
  };

  useLayoutEffect(() => {
    const root = scroller.current;
    if (!root) return;
    // Observe rows new in this render; forget the ones that left.
    const ro = observer.current;
    if (ro) {
      for (const el of observed.current) {
        if (!el.isConnected) {
          ro.unobserve(el);
          observed.current.delete(el);
        }
      }
      for (const el of Array.from(root.querySelectorAll<HTMLElement>('.vrow'))) {
        if (!observed.current.has(el)) {
          observed.current.add(el);
          ro.observe(el);
        }
      }
    }
    if (pos.current.atBottom) {
      // The user may have scrolled up since the last render without the
      // scroll event having run yet; honour that before pinning.
      if (Math.abs(root.scrollTop - lastTop.current) > 1) readScroll(root);
    }
    if (pos.current.atBottom) {
      root.scrollTop = root.scrollHeight;
      lastTop.current = root.scrollTop;
    } else if (anchor.current) {
      // Keep the first visible row where it was. Only when its offset moved
      // (rows above it measured or prepended) is scrollTop touched, and then
      // by the shift alone, so a scroll not yet delivered is kept.
      const i = indexOfKey(items, itemKey, anchor.current.key, findIndex(offsets, pos.current.top));
      if (i >= 0) {
        const want = offsets[i] + anchor.current.delta;
        const shift = want - pos.current.top;
        if (Math.abs(shift) > 0.5) {
          root.scrollTop = root.scrollTop + shift;
          lastTop.current = root.scrollTop;
        }
        pos.current.top = want;
      }
    } else if (Math.abs(lastTop.current - pos.current.top) > 1) {
      root.scrollTop = pos.current.top;
      lastTop.current = root.scrollTop;
    }
    // A programmatic scroll (pinning, anchoring) fires no scroll event
    // before a reload may come: report where the list really is now.
    report(lastTop.current, pos.current.atBottom);
    // Too little content to scroll means no scroll event will ever ask for more.
    if (total < viewport) props.onNearTop?.();
  });

  const report = (t: number, atBottom: boolean) => {
    const r = reported.current;
    if (r && r.atBottom === atBottom && Math.abs(r.top - t) < 1) return;
    reported.current = { top: t, atBottom };
    props.onScrollState?.(t, atBottom);
  };

  const onScroll = () => {
    const root = scroller.current!;
    const wasBottom = pos.current.atBottom;
    const t = readScroll(root);
    report(t, pos.current.atBottom);
    if (t < NEAR_TOP_PX) props.onNearTop?.();
    // Inside the rendered window (with half an overscan to spare) there is
    // nothing new to render.
    const w = window_.current;
    const spare = ahead / 2;
    const view = viewportH.current || viewport;
    const inside = (t - spare >= w.from || w.from <= 0) && (t + view + spare <= w.to || w.to >= total);
    if (!inside || wasBottom !== pos.current.atBottom) rerender(0);
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
        <div class="vspacer" style={{ height: `${total - offsets[last]}px` }} />
      </div>
    </div>
  );
}

/** Index of key, looked for first near hint (rows rarely move far), then everywhere. */
function indexOfKey<T>(items: T[], itemKey: (item: T) => string, key: string, hint: number): number {
  for (let d = 0; d < 64; d++) {
    if (hint + d < items.length && itemKey(items[hint + d]) === key) return hint + d;
    if (d > 0 && hint - d >= 0 && itemKey(items[hint - d]) === key) return hint - d;
  }
  return items.findIndex((it) => itemKey(it) === key);
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
