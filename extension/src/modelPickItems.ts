// Logic of the model picker, free of vscode so it is unit-tested.

/** The words beside each profile, localised by the caller. */
export interface Labels {
  window(size: string): string;
  price(input: number, output: number): string;
  effort(level: string): string;
}

const english: Labels = {
  window: (s) => `window ${s}`,
  price: (i, o) => `$${i} in / $${o} out per M`,
  effort: (e) => `effort ${e}`,
};

/** One govibe.models profile, as far as the picker reads it. */
export interface ProfileEntry {
  name?: string;
  model?: string;
  baseUrl?: string;
  contextWindow?: number;
  priceInput?: number;
  priceOutput?: number;
  reasoningEffort?: string;
}

export interface PickItem {
  label: string;
  description: string;
  detail: string;
  /** The value written to govibe.model. */
  value: string;
  picked: boolean;
}

const tokens = (n: number) => (n >= 1_000_000 ? `${+(n / 1_048_576).toFixed(1)}M` : `${Math.round(n / 1000)}k`);

/** Quick-pick items for the profiles: window and price beside each name. */
export function pickItems(models: ProfileEntry[], current: string, t: Labels = english): PickItem[] {
  const items: PickItem[] = [];
  for (const m of models) {
    const value = m.name || m.model;
    if (!value) continue;
    const parts: string[] = [];
    if (m.contextWindow) parts.push(t.window(tokens(m.contextWindow)));
    if (m.priceInput || m.priceOutput) parts.push(t.price(m.priceInput ?? 0, m.priceOutput ?? 0));
    if (m.reasoningEffort) parts.push(t.effort(m.reasoningEffort));
    items.push({
      label: value,
      description: parts.join(' · '),
      detail: [m.model, m.baseUrl].filter(Boolean).join(' @ '),
      value,
      picked: value === current || m.model === current,
    });
  }
  return items;
}

