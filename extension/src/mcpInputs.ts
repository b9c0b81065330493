// .vscode/mcp.json `inputs` (VS Code's prompted values, e.g. an API token
// for one MCP server). The sidecar names the inputs a server waits for in
// mcp/status (needsInputs); the host takes each value from SecretStorage,
// or asks the user (a password box when the file says so) and stores it
// there, and hands them over with mcp/setInputs. The sidecar keeps them in
// memory, redacts them from its log and puts them only into the config of
// the server that references them. Pure: the VS Code parts come in deps.
//
// SecretStorage is one store for every window, so values are kept per
// workspace (workspaceScope): two projects that both name an input "token"
// must not hand each other's secret to their servers. Values stored by
// earlier versions under the input id alone cannot be told apart by
// workspace; they are never used, and removed when met, so the user is
// asked again instead of a guess being made.
import { createHash } from 'node:crypto';
import type { MCPInput, MCPStatusResult } from './protocol.gen';

export interface McpInputDeps {
  /** The workspace the values belong to (workspaceScope). */
  scope: string;
  status(): Promise<MCPStatusResult>;
  setInputs(values: Record<string, string>): Promise<MCPStatusResult>;
  /** The stored value (SecretStorage), if any. */
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Notes a removed legacy value (for the log). */
  log?(line: string): void;
  /** Asks the user; undefined when they cancel. */
  ask(input: MCPInput): Promise<string | undefined>;
}

/**
 * Names the open workspace: its .code-workspace file when there is one
 * (folders can be added to it), else its folders in any order. A hash, so
 * no path is spelled out in the key.
 */
export function workspaceScope(folders: readonly string[], workspaceFile?: string): string {
  const name = workspaceFile ? `file:${workspaceFile}` : `folders:${[...folders].sort().join('\n')}`;
  return createHash('sha256').update(name).digest('hex').slice(0, 16);
}

/** The SecretStorage key of an input in a workspace. */
export const inputKey = (scope: string, id: string) => `govibe.mcpInput.${scope}.${id}`;

/** Where versions before per-workspace keys stored an input (shared by every workspace). */
export const legacyInputKey = (id: string) => `govibe.mcpInput.${id}`;

/**
 * Supplies the inputs the servers wait for: stored ones always, and with
 * `prompt` the missing ones asked of the user (and stored). Returns the
 * status after, or before when nothing was supplied.
 */
export async function supplyMcpInputs(deps: McpInputDeps, prompt: boolean): Promise<MCPStatusResult> {
  const status = await deps.status();
  const wanted = new Map<string, MCPInput>();
  for (const s of status.servers) for (const i of s.needsInputs ?? []) wanted.set(i.id, i);
  const values: Record<string, string> = {};
  for (const i of wanted.values()) {
    if ((await deps.get(legacyInputKey(i.id))) !== undefined) {
      await deps.delete(legacyInputKey(i.id));
      deps.log?.(`MCP input ${i.id}: removed a value stored for every workspace by an earlier version; it is asked for again per workspace`);
    }
    const key = inputKey(deps.scope, i.id);
    let v = await deps.get(key);
    if (v === undefined && prompt) {
      v = await deps.ask(i);
      if (v !== undefined) await deps.store(key, v);
    }
    if (v !== undefined) values[i.id] = v;
  }
  return Object.keys(values).length > 0 ? deps.setInputs(values) : status;
}
