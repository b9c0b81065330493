import { describe, expect, it } from 'vitest';
import { inputKey, legacyInputKey, supplyMcpInputs, workspaceScope, type McpInputDeps } from '../src/mcpInputs';
import type { MCPStatusResult } from '../src/protocol.gen';

const waiting: MCPStatusResult = {
  servers: [
    { name: 'a', state: 'failed', kind: 'stdio', source: '.vscode/mcp.json', tools: 0, schemaTokens: 0, restarts: 0, needsInputs: [{ id: 'tok', description: 'Token', password: true }] },
    { name: 'b', state: 'idle', kind: 'stdio', source: '.vscode/mcp.json', tools: 0, schemaTokens: 0, restarts: 0, needsInputs: [{ id: 'tok', password: true }, { id: 'org' }] },
  ],
  skipped: [],
};

const A = workspaceScope(['file:///home/me/project-a']);
const B = workspaceScope(['file:///home/me/project-b']);

/** One SecretStorage shared by every window, as VS Code's is. */
function deps(stored: Record<string, string>, answers: Record<string, string | undefined>, scope = A) {
  const sent: Record<string, string>[] = [];
  const asked: string[] = [];
  const logs: string[] = [];
  const d: McpInputDeps = {
    scope,
    status: async () => waiting,
    setInputs: async (v) => {
      sent.push(v);
      return { servers: [], skipped: [] };
    },
    get: async (k) => stored[k],
    store: async (k, v) => {
      stored[k] = v;
    },
    delete: async (k) => {
      delete stored[k];
    },
    ask: async (i) => {
      asked.push(i.id);
      return answers[i.id];
    },
    log: (l) => logs.push(l),
  };
  return { d, sent, asked, stored, logs };
}

describe('MCP inputs', () => {
  it('stored values are sent without asking; at start-up nothing is asked', async () => {
    const { d, sent, asked } = deps({ [inputKey(A, 'tok')]: 'T' }, {});
    await supplyMcpInputs(d, false);
    expect(asked).toEqual([]);
    expect(sent).toEqual([{ tok: 'T' }]);
  });

  it('prompting asks each missing input once, stores it, and a cancel sends nothing for it', async () => {
    const { d, sent, asked, stored } = deps({}, { tok: 'secret', org: undefined });
    await supplyMcpInputs(d, true);
    expect(asked).toEqual(['tok', 'org']);
    expect(stored).toEqual({ [inputKey(A, 'tok')]: 'secret' });
    expect(sent).toEqual([{ tok: 'secret' }]);
  });

  it('nothing to supply: no mcp/setInputs', async () => {
    const { d, sent } = deps({}, {});
    const st = await supplyMcpInputs(d, false);
    expect(sent).toEqual([]);
    expect(st).toBe(waiting);
  });

  it('two workspaces with the same input id never share its value', async () => {
    const secrets: Record<string, string> = {};
    const a = deps(secrets, { tok: 'token-of-a', org: 'org-a' }, A);
    await supplyMcpInputs(a.d, true);
    const b = deps(secrets, { tok: 'token-of-b', org: 'org-b' }, B);
    await supplyMcpInputs(b.d, false);
    expect(b.sent).toEqual([]); // nothing of A's reaches B's servers
    await supplyMcpInputs(b.d, true);
    expect(b.asked).toEqual(['tok', 'org']);
    expect(b.sent).toEqual([{ tok: 'token-of-b', org: 'org-b' }]);
    const again = deps(secrets, {}, A);
    await supplyMcpInputs(again.d, false);
    expect(again.sent).toEqual([{ tok: 'token-of-a', org: 'org-a' }]);
  });

  it('a value an earlier version stored for every workspace is not used but removed, and the input asked again', async () => {
    const secrets: Record<string, string> = { [legacyInputKey('tok')]: 'whose-is-this' };
    const start = deps(secrets, {}, A);
    await supplyMcpInputs(start.d, false);
    expect(start.sent).toEqual([]);
    expect(secrets).toEqual({});
    expect(start.logs.join('\n')).toContain('tok');
    const ask = deps(secrets, { tok: 'fresh' }, A);
    await supplyMcpInputs(ask.d, true);
    expect(ask.asked).toContain('tok');
    expect(ask.sent).toEqual([{ tok: 'fresh' }]);
  });

  it('names a workspace by its file, else by its folders in any order', () => {
    expect(workspaceScope(['file:///x', 'file:///y'])).toBe(workspaceScope(['file:///y', 'file:///x']));
    expect(workspaceScope(['file:///x'])).not.toBe(workspaceScope(['file:///y']));
    expect(workspaceScope(['file:///x'], 'file:///w.code-workspace')).toBe(workspaceScope(['file:///z'], 'file:///w.code-workspace'));
    expect(A).toMatch(/^[0-9a-f]{16}$/);
    expect(inputKey(A, 'tok')).not.toContain('/home/');
  });
});
