// Logic of "Add Model"'s model step, free of vscode so it is unit-tested.

/** One model of models/list, as far as the step reads it. */
export interface ListedModel {
  id: string;
  contextWindow?: number;
}

export interface ModelItem {
  label: string;
  description: string;
  /** The model id, or ENTER_ID for "type one". */
  id: string;
}

/** The item that asks for a model id the list does not show. */
export const ENTER_ID = '';

export interface Words {
  window(size: string): string;
  enter: string;
  enterDetail: string;
}

const tokens = (n: number) => (n >= 1_000_000 ? `${+(n / 1_048_576).toFixed(1)}M` : `${Math.round(n / 1000)}k`);

/**
 * The models to choose from, each with its window, and last an entry to
 * type an id: a list may be incomplete (Ollama lists only pulled models, a
 * provider without GET /models offers only the models GoVibe knows).
 */
export function modelItems(models: ListedModel[], w: Words): ModelItem[] {
  const items: ModelItem[] = models.map((m) => ({
    label: m.id,
    description: m.contextWindow ? w.window(tokens(m.contextWindow)) : '',
    id: m.id,
  }));
  items.push({ label: w.enter, description: w.enterDetail, id: ENTER_ID });
  return items;
}

/** Why a typed model id cannot be used ("empty" or "spaces"; the caller
 * words it), or undefined when it can. */
export function checkModelId(raw: string): 'empty' | 'spaces' | undefined {
  const id = raw.trim();
  if (!id) return 'empty';
  if (/\s/.test(id)) return 'spaces';
  return undefined;
}

/** Why a typed base URL cannot be used ("empty" or "scheme"; the caller
 * words it), or undefined when it can. */
export function checkBaseUrl(raw: string): 'empty' | 'scheme' | undefined {
  const url = normalizeBaseUrl(raw);
  if (!url) return 'empty';
  try {
    const u = new URL(url);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.host) return 'scheme';
  } catch {
    return 'scheme';
  }
  return undefined;
}

/**
 * A base URL as a profile keeps it: trimmed, without a trailing slash or a
 * pasted /chat/completions (GoVibe appends that itself).
 */
export function normalizeBaseUrl(raw: string): string {
  return raw
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/chat\/completions$/, '');
}

/** The name offered for a custom endpoint's profile: host/model. */
export function customProfileName(baseUrl: string, model: string): string {
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // keep what was typed
  }
  return `${host}/${model}`;
}

/** What models/probe found, as far as the profile reads it. */
export interface ProbeFindings {
  tools: boolean;
}

/** A listed model's figures the profile keeps. */
export interface ModelFigures {
  contextWindow?: number;
  maxOutputTokens?: number;
  priceInput?: number;
  priceCachedInput?: number;
  priceOutput?: number;
}

/**
 * The govibe.models entry Add Model writes. Without a probe (the endpoint
 * did not answer) tool calling is left to "auto": the sidecar finds out on
 * the first request and remembers it.
 */
export function newProfile(o: {
  name: string;
  preset?: string;
  baseUrl: string;
  model: string;
  probe?: ProbeFindings;
  figures?: ModelFigures;
}): Record<string, unknown> {
  const profile: Record<string, unknown> = { name: o.name };
  if (o.preset) profile.preset = o.preset;
  profile.baseUrl = o.baseUrl;
  profile.model = o.model;
  profile.toolCalling = o.probe && !o.probe.tools ? 'text' : 'auto';
  for (const k of ['contextWindow', 'maxOutputTokens', 'priceInput', 'priceCachedInput', 'priceOutput'] as const) {
    if (o.figures?.[k]) profile[k] = o.figures[k];
  }
  return profile;
}
