// Adopting the page's own composer (shared/bootInput.ts): what was typed
// into it while the script loaded becomes the mounted composer's, with its
// caret and focus, and an Enter pressed there is sent once mounted.
import { BOOT_ID, BOOT_INPUT_ID, BOOT_SEND_ATTR } from '../../shared/bootInput';

export interface BootInput {
  text: string;
  selectionStart: number;
  selectionEnd: number;
  focused: boolean;
  /** Enter was pressed in it: the text is to be sent. */
  send: boolean;
  /** Where it was on the page, to compare with the mounted composer's place. */
  rect: { top: number; bottom: number; left: number; right: number };
}

/**
 * Reads the page's composer and removes it, or undefined when the page has
 * none (a test's document, a view that mounted before). Synchronous with the
 * mount, so no keystroke falls between the read and the removal.
 */
export function takeBootInput(doc: Document): BootInput | undefined {
  const el = doc.getElementById(BOOT_INPUT_ID);
  if (!(el instanceof doc.defaultView!.HTMLTextAreaElement)) return undefined;
  const b: BootInput = {
    text: el.value,
    selectionStart: el.selectionStart,
    selectionEnd: el.selectionEnd,
    focused: doc.activeElement === el,
    send: el.hasAttribute(BOOT_SEND_ATTR),
    rect: box(el),
  };
  (doc.getElementById(BOOT_ID) ?? el).remove();
  return b;
}

/**
 * Gives the mounted composer's textarea the caret and focus the page's had.
 * The mark govibe/boot-adopted carries both places: the start-up bench
 * checks that the input did not move under the user's fingers.
 */
export function restoreCaret(input: HTMLTextAreaElement | null, b: BootInput): void {
  if (!input) return;
  if (b.focused) input.focus();
  input.setSelectionRange(b.selectionStart, b.selectionEnd);
  performance.mark('govibe/boot-adopted', { detail: { page: b.rect, mounted: box(input) } });
}

function box(el: Element): BootInput['rect'] {
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
}
