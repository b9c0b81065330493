// Which model the chat uses, whether a key is set for it, and whether its
// endpoint answers: shown in the chat header before the first Send, so a
// problem is visible (with its fix one click away) before it costs a turn.
import { findPlainKeys, profileNames } from '../settings';

type Getter = (key: string) => unknown;

import type { ModelStatus } from '../../shared/webviewMessages';
export type { ModelStatus };

/** The problem texts, translated by the caller (vscode.l10n stays out of this module). */
export interface ProblemTexts {
  noModel(): string;
  noKey(label: string): string;
  unreachable(baseUrl: string): string;
}

const english: ProblemTexts = {
  noModel: () => 'No model is configured.',
  noKey: (l) => `No API key is set for ${l}.`,
  unreachable: (u) => `Cannot reach ${u}.`,
};

export function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Loopback endpoints (a local server, the scripted test model) need no key. */
export function isLoopback(baseUrl: string): boolean {
  try {
    const h = new URL(baseUrl).hostname;
    return h === 'localhost' || h === '127.0.0.1' || h === '::1' || h === '[::1]';
  } catch {
    return false;
  }
}

/**
 * Resolves govibe.model against govibe.models the way the sidecar does: a
 * name that matches a profile selects it (its model, its base URL, its
 * key, else the default ones); anything else is a model id.
 */
export function resolveModel(get: Getter, keys: Readonly<Record<string, string>>): Omit<ModelStatus, 'problem'> {
  const chosen = str(get('model'));
  const profiles = profileNames(get);
  const models = Array.isArray(get('models')) ? (get('models') as unknown[]) : [];
  const profile = models.find((m): m is Record<string, unknown> => isRecord(m) && m.name === chosen && chosen !== '');
  const baseUrl = str(profile?.baseUrl) || str(get('apiBaseUrl'));
  const hasKey = !!(profile ? keys[chosen] || keys[''] : keys['']);
  return {
    label: chosen,
    model: profile ? str(profile.model) || chosen : chosen,
    baseUrl,
    key: hasKey ? 'set' : isLoopback(baseUrl) ? 'notNeeded' : 'missing',
    profiles,
  };
}

/** Asks the endpoint for anything; any HTTP answer means it is reachable. */
export async function probe(baseUrl: string, timeoutMs = 4000): Promise<boolean> {
  if (!baseUrl) return false;
  try {
    const res = await fetch(baseUrl.replace(/\/+$/, '') + '/models', { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    void res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/**
 * The header's model status: resolved at once, then the endpoint probed.
 * post is called with the quick answer first and again if the probe finds
 * a problem, so the header never waits on the network.
 */
export async function refreshModelStatus(
  get: Getter,
  secrets: Readonly<Record<string, string>>,
  post: (s: ModelStatus) => void,
  t: ProblemTexts = english,
): Promise<void> {
  const keys: Record<string, string> = {};
  for (const p of findPlainKeys(get)) keys[p.profile] = p.key;
  for (const [k, v] of Object.entries(secrets)) if (v) keys[k] = v;
  const st: ModelStatus = resolveModel(get, keys);
  if (!st.model) {
    st.problem = { text: t.noModel(), action: 'openSettings' };
  } else if (st.key === 'missing') {
    st.problem = { text: t.noKey(st.label), action: 'setApiKey' };
  }
  post(st);
  // A busy machine or a cold local server can miss one short probe: only a
  // second, longer miss is reported.
  if (st.problem || (await probe(st.baseUrl)) || (await probe(st.baseUrl, 10_000))) return;
  post({ ...st, problem: { text: t.unreachable(st.baseUrl), action: 'openSettings', unreachable: true } });
}
