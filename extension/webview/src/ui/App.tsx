import { useEffect, useReducer } from 'preact/hooks';
import type { TodoState } from '../../../src/protocol.gen';
import type { ViewMessage } from '../model';
import { useServices } from '../context';
import { InterruptedBanner, NoticeBanners, ServerBanner } from './Banners';
import { Composer } from './Composer';
import { ConfirmArea } from './ConfirmCards';
import { Header } from './Header';
import { McpPanel } from './McpPanel';
import { PhasesPanel } from './PhasesPanel';
import { PlanEditor } from './PlanEditor';
import { ReconcilePanel } from './ReconcilePanel';
import { TodoPanel } from './TodoPanel';
import { Transcript } from './Transcript';

export function App() {
  const { store } = useServices();
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  // One render per animation frame however many messages arrived in it: a
  // fast stream posts many deltas a frame, and each would otherwise re-run
  // the whole tree.
  useEffect(() => {
    let frame = 0;
    const off = store.subscribe(() => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        rerender(0);
      });
    });
    return () => {
      off();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [store]);
  const s = store.state;
  return (
    <div class="app" key={s.l10nVersion} lang={s.locale}>
      <Header
        session={s.session}
        sessions={s.sessions}
        context={s.context}
        // An empty chat has no context to measure: its figure would be only
        // the estimate of the system prompt and tools, larger than what a
        // provider later reports for a short chat. Nothing until a message.
        measured={s.messages.length > 0}
        running={s.running}
        model={s.model}
        mode={s.mode}
        problemInChat={endsWithError(s.messages)}
      />
      <ServerBanner state={s.serverState} detail={s.serverDetail} />
      <NoticeBanners notices={s.notices} />
      {s.mcpOpen && <McpPanel mcp={s.mcp} />}
      {s.mode === 'phases' && <PhasesPanel st={s.modeState ?? { mode: 'phases', state: '', step: 0 }} />}
      {s.mode === 'reconcile' && <ReconcilePanel run={s.modeState?.reconcile} sessionId={s.sessionId} busy={s.running} />}
      {s.todo && s.todo.items.length > 0 && (proposed(s.mode, s.running, s.todo) ? (
        <PlanEditor todo={s.todo} sessionId={s.sessionId} />
      ) : (
        <TodoPanel todo={s.todo} sessionId={s.sessionId} running={s.running} />
      ))}
      <main class="transcript">
        <Transcript
          key={s.sessionId ?? ''}
          messages={s.messages}
          sessionId={s.sessionId}
          running={s.running}
          todo={s.todo}
          hasMore={s.hasMore}
          loadingMore={s.loadingMore}
          sendTick={s.sendTick}
        />
      </main>
      {s.interrupted && !s.running && <InterruptedBanner />}
      <ConfirmArea confirms={s.confirms} />
      <Composer
        sessionId={s.sessionId}
        running={s.running}
        editEnabled={s.editEnabled}
        focusTick={s.focusTick}
        disabled={s.serverState === 'error' || s.serverState === 'stopped'}
      />
    </div>
  );
}

/**
 * The last turn ended on an error card: it says what went wrong and offers
 * Retry, so the model-problem banner above would only say it again.
 */
function endsWithError(messages: ViewMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return false;
    if (m.blocks.some((b) => b.kind === 'error')) return true;
  }
  return false;
}

/** Plan mode's plan before it runs: every item pending, nothing running. */
function proposed(mode: string | undefined, running: boolean, todo: TodoState): boolean {
  return mode === 'plan' && !running && todo.items.every((i) => i.status === 'pending');
}
