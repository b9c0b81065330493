import * as vscode from 'vscode';

import type { ClientRequests } from '../protocol.gen';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

/** The working modes, in picker order (values are the sidecar's names). */
export const MODES = ['agent', 'plan', 'phases', 'reconcile'] as const;
export type Mode = (typeof MODES)[number];

function label(m: Mode): string {
  switch (m) {
    case 'agent':
      return vscode.l10n.t('Agent');
    case 'plan':
      return vscode.l10n.t('Plan');
    case 'phases':
      return vscode.l10n.t('Phases');
    case 'reconcile':
      return vscode.l10n.t('Reconcile');
  }
}

function detail(m: Mode): string {
  switch (m) {
    case 'agent':
      return vscode.l10n.t('Free work, with todo plans run by the scheduler');
    case 'plan':
      return vscode.l10n.t('Read-only; ends by proposing a plan you edit and run');
    case 'phases':
      return vscode.l10n.t('Exploring, planning, patching, verifying, each with its own tools');
    case 'reconcile':
      return vscode.l10n.t('A manifest, then specifier, coder and auditor loops until the tests pass');
  }
}

/**
 * The mode picker lives in the extension host (a command and a quick
 * pick) while the webview header is being reworked; the mode itself is
 * the session's, stored by the sidecar.
 */
export async function pickMode(request: Request, sessionId: string | undefined): Promise<Mode | undefined> {
  if (!sessionId) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a chat session first.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    MODES.map((m) => ({ label: label(m), detail: detail(m), mode: m })),
    { placeHolder: vscode.l10n.t('Working mode for this session') },
  );
  if (!picked) return undefined;
  await request('chat/setMode', { sessionId, mode: picked.mode });
  return picked.mode;
}

/** Hands the plan that Plan mode proposed to the scheduler. */
export async function runPlan(request: Request, sessionId: string | undefined): Promise<void> {
  if (!sessionId) return;
  await request('chat/runPlan', { sessionId });
}
