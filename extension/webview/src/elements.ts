// vscode-elements, one component at a time: only what the view uses.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { HTMLAttributes } from 'preact';

type Custom = HTMLAttributes<HTMLElement> & {
  secondary?: boolean;
  disabled?: boolean;
  variant?: string;
  /** A codicon name drawn inside the button's own layout, so it never overlaps the label. */
  icon?: string;
  title?: string;
  'data-testid'?: string;
};

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'vscode-button': Custom;
      'vscode-badge': Custom;
      'vscode-progress-ring': Custom;
    }
  }
}
