// ErrorInfo.action and webview `command` names → VS Code commands. Pure.
export type RemedyAction = 'setApiKey' | 'showLogs' | 'restartServer' | 'openSettings' | 'continue' | 'trustWorkspace' | 'alwaysAllowedRules';

export const REMEDY_COMMANDS: Readonly<Record<Exclude<RemedyAction, 'continue'>, string>> = {
  setApiKey: 'govibe.setApiKey',
  showLogs: 'govibe.showLogs',
  restartServer: 'govibe.restartServer',
  openSettings: 'workbench.action.openSettings',
  // VS Code's workspace trust request: the Workspace Trust editor.
  trustWorkspace: 'workbench.trust.manage',
  alwaysAllowedRules: 'govibe.alwaysAllowedRules',
};

export function isRemedy(action: string | undefined): action is RemedyAction {
  return action === 'continue' || (action !== undefined && action in REMEDY_COMMANDS);
}
