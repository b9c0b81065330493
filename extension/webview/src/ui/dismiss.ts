// Popovers (the mode menu, the skills picker, the chat history) close the
// way menus do: Escape, or a press anywhere outside them and their toggle
// button. Without it a popover stayed over the transcript until its own
// close button was found.
import { type RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * While `open`, calls `close` on Escape (anywhere in the view) and on a
 * pointer press outside every element in `inside` (the popover and the
 * button that toggles it: a press on the button toggles it itself).
 */
export function useDismiss(open: boolean, close: () => void, ...inside: RefObject<HTMLElement | null>[]): void {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    const onPress = (e: Event) => {
      const t = e.target as Node | null;
      if (t && inside.some((r) => r.current?.contains(t))) return;
      close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPress, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPress, true);
    };
  }, [open]);
}
