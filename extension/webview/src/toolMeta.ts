// What a tool result's meta says about how the call was decided: run
// without asking (and by which rule), or declined by the user. The sidecar
// sends the facts; the words are chosen here so they follow the UI locale.
import * as l10n from '@vscode/l10n';

export interface AutoApproval {
  by: string;
  detail?: string;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export function autoApprovalOf(meta: unknown): AutoApproval | undefined {
  const a = obj(obj(meta)?.autoApproved);
  if (!a || typeof a.by !== 'string') return undefined;
  return { by: a.by, detail: typeof a.detail === 'string' && a.detail ? a.detail : undefined };
}

/** The user said no: a choice, shown in neutral colours rather than as a failure. */
export function declinedOf(meta: unknown): { reason?: string } | undefined {
  const m = obj(meta);
  if (!m || m.declined !== true) return undefined;
  return { reason: typeof m.reason === 'string' && m.reason ? m.reason : undefined };
}

/**
 * The mode or the agent's role does not run this tool, or a PreToolUse
 * hook refused it (by: 'hook'): shown neutrally, with the sidecar's reason.
 */
export function withheldOf(meta: unknown): { by: 'mode' | 'hook' } | undefined {
  const m = obj(meta);
  if (m?.withheld !== true) return undefined;
  return { by: m.withheldBy === 'hook' ? 'hook' : 'mode' };
}

/** "auto-approved: read-only command", naming the rule that let the call through. */
export function autoApprovalText(a: AutoApproval): string {
  switch (a.by) {
    case 'read-only':
      return l10n.t('auto-approved: read-only command');
    case 'rule':
      return a.detail ? l10n.t('auto-approved: allow rule {0}', a.detail) : l10n.t('auto-approved: an allow rule');
    case 'setting':
      switch (a.detail) {
        case 'govibe.autoApprove.edits':
          return l10n.t('auto-approved: edits auto-approve setting');
        case 'govibe.confirmChanges':
          return l10n.t('auto-approved: confirming changes is turned off');
        case 'govibe.confirmShellCommand':
          return l10n.t('auto-approved: confirming commands is turned off');
        case 'govibe.sandbox.autoApprove':
          // It ran unasked because it could not write or reach the network.
          return l10n.t('ran unasked in the read-only sandbox');
      }
      return l10n.t('auto-approved: setting {0}', a.detail ?? '');
    case 'flag':
      return l10n.t('auto-approved: {0}', a.detail ?? '--approve');
    case 'hook':
      return a.detail ? l10n.t('auto-approved: a PreToolUse hook ({0})', a.detail) : l10n.t('auto-approved: a PreToolUse hook');
  }
  return l10n.t('auto-approved');
}

export function declinedText(tool: string, reason?: string): string {
  const isShell = tool === 'run_shell_command';
  if (reason) return isShell ? l10n.t('You denied this command: {0}', reason) : l10n.t('You rejected this change: {0}', reason);
  return isShell ? l10n.t('You denied this command.') : l10n.t('You rejected this change.');
}
