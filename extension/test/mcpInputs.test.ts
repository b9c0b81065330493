import { describe, expect, it } from 'vitest';
import { inputKey, supplyMcpInputs, type McpInputDeps } from '../src/mcpInputs';
import type { MCPStatusResult } from '../src/protocol.gen';

const waiting: MCPStatusResult = {
  servers: [
    { name: 'a', state: 'failed', kind: 'stdio', source: '.vscode/mcp.json', tools: 0, schemaTokens: 0, restarts: 0, needsInputs: [{ id: 'tok', description: 'Token', password: true }] },
    { name: 'b', state: 'idle', kind: 'stdio', source: '.vscode/mcp.json', tools: 0, schemaTokens: 0, restarts: 0, needsInputs: [{ id: 'tok', password: true }, { id: 'org' }] },
  ],
  skipped: [],
};

function deps(stored: Record<string, string>, answers: Record<string, string | undefined>) {
  const sent: Record<string, string>[] = [];
  const asked: string[] = [];
  const d: McpInputDeps = {
    status: async () => waiting,
    setInputs: async (v) => {
      sent.push(v);
      return { servers: [], skipped: [] };
    },
    get: async (k) => stored[k],
    store: async (k, v) => {
      stored[k] = v;
    },
    ask: async (i) => {
      asked.push(i.id);
      return answers[i.id];
    },
  };
  return { d, sent, asked, stored };
}

describe('MCP inputs', () => {
  it('stored values are sent without asking; at start-up nothing is asked', async () => {
    const { d, sent, asked } = deps({ [inputKey('tok')]: 'T' }, {});
    await supplyMcpInputs(d, false);
    expect(asked).toEqual([]);
    expect(sent).toEqual([{ tok: 'T' }]);
  });

  it('prompting asks each missing input once, stores it, and a cancel sends nothing for it', async () => {
    const { d, sent, asked, stored } = deps({}, { tok: 'secret', org: undefined });
    await supplyMcpInputs(d, true);
    expect(asked).toEqual(['tok', 'org']);
    expect(stored).toEqual({ [inputKey('tok')]: 'secret' });
    expect(sent).toEqual([{ tok: 'secret' }]);
  });

  it('nothing to supply: no mcp/setInputs', async () => {
    const { d, sent } = deps({}, {});
    const st = await supplyMcpInputs(d, false);
    expect(sent).toEqual([]);
    expect(st).toBe(waiting);
  });
});
