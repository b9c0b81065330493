// The chat input's lookups: slash commands, @-mention files and the skills
// picker. Each is a sidecar request answered back to the webview; the
// webview tags command and file requests with a number and keeps only the
// answer to its newest, so a slow answer never replaces a newer one.
import type { HostMessage, WebviewMessage } from '../../shared/webviewMessages';
import type { ClientRequests } from '../protocol.gen';

type Request = <M extends keyof ClientRequests>(method: M, params: ClientRequests[M]['params']) => Promise<ClientRequests[M]['result']>;

export type CompletionMessage = Extract<WebviewMessage, { type: 'listCommands' | 'completeFiles' | 'listSkills' | 'setSkillActive' }>;

export function isCompletionMessage(m: WebviewMessage): m is CompletionMessage {
  return m.type === 'listCommands' || m.type === 'completeFiles' || m.type === 'listSkills' || m.type === 'setSkillActive';
}

export async function answerCompletion(m: CompletionMessage, request: Request, post: (m: HostMessage) => void, current?: string): Promise<void> {
  switch (m.type) {
    case 'listCommands': {
      const { commands } = await request('commands/list', {});
      post({ type: 'commands', reqId: m.reqId, commands });
      return;
    }
    case 'completeFiles': {
      const { items, partial } = await request('files/complete', { query: m.query, limit: 30 });
      post({ type: 'files', reqId: m.reqId, items, partial: !!partial });
      return;
    }
    case 'listSkills': {
      const { skills } = await request('skills/list', { sessionId: m.sessionId ?? current });
      post({ type: 'skills', skills });
      return;
    }
    case 'setSkillActive': {
      const sessionId = m.sessionId ?? current;
      try {
        // Without a session yet, an activation holds for the workspace.
        const { skills } = await request('skills/setActive', { sessionId, name: m.name, active: m.active, workspace: m.active && !sessionId });
        post({ type: 'skills', skills });
      } catch (err) {
        const { skills } = await request('skills/list', { sessionId });
        post({ type: 'skills', skills, error: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
  }
}
