// The chat input the view's page shows before its script has run (issue
// 33 §6). The script is a few hundred KB that the webview parses and
// mounts after the document arrives; the page's own <textarea> takes text
// from the first paint, and the mounted composer adopts what it holds (the
// text, the caret, the focus, an Enter pressed to send). The host writes
// the element (extension/src/webviewHtml.ts), the webview adopts it
// (extension/webview/src/boot.ts). Plain constants only: both sides bundle
// this file.

/** The page's composer (a footer) and its textarea. */
export const BOOT_ID = 'boot';
export const BOOT_INPUT_ID = 'boot-input';
/** Set on the textarea when Enter was pressed before the script ran. */
export const BOOT_SEND_ATTR = 'data-send';

/**
 * The composer's idle placeholder and label, in English: the keys of the
 * webview's l10n bundle, which the host uses to translate them. A webview
 * test checks that the composer shows the same two strings.
 */
/** What the host writes into the page's composer. */
export interface BootText {
  /** The draft the view saved (its state, handed back on a reload). */
  draft: string;
  placeholder: string;
  label: string;
}

export const BOOT_PLACEHOLDER = 'Ask GoVibe… (/ for commands, @ to attach)';
export const BOOT_LABEL = 'Message';
