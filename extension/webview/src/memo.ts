import { Component, type ComponentChildren, type FunctionComponent, h } from 'preact';

function shallowEqual(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  }
  return true;
}

/**
 * A component that re-renders only when a prop changed identity. The store
 * replaces exactly the message objects a delta touched, so this is what keeps
 * streaming into one message from re-rendering the others.
 */
export function memo<P extends object>(fn: FunctionComponent<P>): FunctionComponent<P> {
  class Memo extends Component<P> {
    shouldComponentUpdate(next: P): boolean {
      return !shallowEqual(this.props as object, next);
    }
    render(props: P & { children?: ComponentChildren }) {
      return h(fn as FunctionComponent<P>, props);
    }
  }
  return Memo as unknown as FunctionComponent<P>;
}
