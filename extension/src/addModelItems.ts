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
