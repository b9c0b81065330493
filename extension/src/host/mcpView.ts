// The MCP status view's actions (webview `mcp` messages): refresh (with
// connect, idle servers start), restart, enable or disable one server,
// or ask for the .vscode/mcp.json inputs servers wait for. Answers the
// message to post back: the new status, or why the sidecar refused.
import type { HostMessage, WebviewMessage } from '../../shared/webviewMessages';
import type { ClientRequests, MCPStatusResult } from '../protocol.gen';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;
type Action = Extract<WebviewMessage, { type: 'mcp' }>['action'];

export async function mcpAction(
  r: Request,
  inputs: (() => Promise<MCPStatusResult>) | undefined,
  action: Action,
  name?: string,
): Promise<Extract<HostMessage, { type: 'mcp' }>> {
  try {
    if (action === 'inputs' && inputs) {
      await inputs();
      return { type: 'mcp', status: await r('mcp/status', { connect: true }) };
    }
    if (action === 'restart' && name) return { type: 'mcp', status: await r('mcp/restart', { name }) };
    if ((action === 'enable' || action === 'disable') && name) {
      return { type: 'mcp', status: await r('mcp/setEnabled', { name, enabled: action === 'enable' }) };
    }
    return { type: 'mcp', status: await r('mcp/status', { connect: action === 'connect' }) };
  } catch (err) {
    return { type: 'mcp', error: err instanceof Error ? err.message : String(err) };
  }
}
