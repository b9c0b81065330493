// GoVibe: Always-Allowed Rules: lists the user allow rules that "Always
// allow" on confirmation cards wrote (permissions/list) and revokes the
// one picked (permissions/revoke). The rules live in the sidecar's user
// config folder, shared with headless runs (govibe permissions).
import * as vscode from 'vscode';
import type { ClientRequests } from '../protocol.gen';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

interface RuleItem extends vscode.QuickPickItem {
  rule?: string;
}

/** Shows the rules; picking one asks, then revokes it. Returns the rule revoked, if any. */
export async function manageAllowRules(request: Request): Promise<string | undefined> {
  const list = await request('permissions/list', undefined);
  if (list.error) void vscode.window.showWarningMessage(vscode.l10n.t('The always-allow rules file is malformed and was not applied: {0}', list.error));
  if (list.rules.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No always-allow rules yet. Use "Always allow" on a confirmation to add one ({0}).', list.file));
    return undefined;
  }
  const items: RuleItem[] = list.rules.map((r) => ({
    label: r.rule,
    description: new Date(r.added).toLocaleString(),
    rule: r.rule,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Always-allowed rules ({0})', list.file),
    placeHolder: vscode.l10n.t('Pick a rule to revoke it'),
  });
  if (!picked?.rule) return undefined;
  const revoke = vscode.l10n.t('Revoke');
  const ok = await vscode.window.showWarningMessage(vscode.l10n.t('Revoke {0}? Matching calls will ask again.', picked.rule), { modal: true }, revoke);
  if (ok !== revoke) return undefined;
  await request('permissions/revoke', { rule: picked.rule });
  void vscode.window.showInformationMessage(vscode.l10n.t('Revoked {0}.', picked.rule));
  return picked.rule;
}
