import { useEffect, useReducer } from 'preact/hooks';
import { useServices } from '../context';
import { InterruptedBanner, NoticeBanners, ServerBanner } from './Banners';
import { Composer } from './Composer';
import { ConfirmArea } from './ConfirmCards';
import { Header } from './Header';
import { TodoPanel } from './TodoPanel';
import { Transcript } from './Transcript';

export function App() {
  const { store } = useServices();
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  useEffect(() => store.subscribe(() => rerender(0)), [store]);
  const s = store.state;
  return (
    <div class="app" key={s.l10nVersion} lang={s.locale}>
      <Header session={s.session} sessions={s.sessions} context={s.context} running={s.running} model={s.model} />
      <ServerBanner state={s.serverState} detail={s.serverDetail} />
      <NoticeBanners notices={s.notices} />
      {s.todo && s.todo.items.length > 0 && <TodoPanel todo={s.todo} sessionId={s.sessionId} running={s.running} />}
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
