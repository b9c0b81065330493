// .vscode/mcp.json `inputs` (VS Code's prompted values, e.g. an API token
// for one MCP server). The sidecar names the inputs a server waits for in
// mcp/status (needsInputs); the host takes each value from SecretStorage,
// or asks the user (a password box when the file says so) and stores it
// there, and hands them over with mcp/setInputs. The sidecar keeps them in
// memory, redacts them from its log and puts them only into the config of
// the server that references them. Pure: the VS Code parts come in deps.
import type { MCPInput, MCPStatusResult } from './protocol.gen';

export interface McpInputDeps {
  status(): Promise<MCPStatusResult>;
  setInputs(values: Record<string, string>): Promise<MCPStatusResult>;
  /** The stored value (SecretStorage), if any. */
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  /** Asks the user; undefined when they cancel. */
  ask(input: MCPInput): Promise<string | undefined>;
}

/** The SecretStorage key of an input. */
export const inputKey = (id: string) => `govibe.mcpInput.${id}`;

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
    let v = await deps.get(inputKey(i.id));
    if (v === undefined && prompt) {
      v = await deps.ask(i);
      if (v !== undefined) await deps.store(inputKey(i.id), v);
    }
    if (v !== undefined) values[i.id] = v;
  }
  return Object.keys(values).length > 0 ? deps.setInputs(values) : status;
}
