import type { SnapshotFrom } from 'xstate';
import type { listenFlowMachine } from './listenFlow.machine';
import type { ListenFlowContext, ListenFlowEvent, ListenPlayer } from './listenFlow.types';

/**
 * The listen player's page, clock and narration status for the view, from the flow's context alone. The clock
 * counts only while the current passage's narration is the one loaded (0 otherwise); the length is the audio's
 * own once it reports one, else the narration's.
 */
export function listenPlayerOf(snapshot: { context: ListenFlowContext }): ListenPlayer {
  const c = snapshot.context;
  const answer = c.narrations[c.position];
  const audio: ListenPlayer['audio'] = !c.audioEnabled
    ? 'none'
    : c.locked || c.refused
      ? 'locked'
      : answer === undefined || answer.status === 'loading'
        ? 'loading'
        : answer.status;
  const ready = audio === 'ready' && answer?.status === 'ready' ? answer : null;
  const loaded = ready !== null && c.loadedUrl === ready.url;
  return {
    position: c.position,
    currentTime: loaded ? c.currentTime : 0,
    duration: loaded && c.duration > 0 ? c.duration : ready ? ready.duration : 0,
    audio,
  };
}

export function connectListenFlow(snapshot: SnapshotFrom<typeof listenFlowMachine>, send: (event: ListenFlowEvent) => void) {
  return {
    /** Page, clock and narration status. */
    player: listenPlayerOf(snapshot),
    /** Whether the play control should offer 'Unlock Premium Audio'. */
    isLocked: snapshot.matches('locked'),
    /** Whether the narration is playing now. */
    isSounding: snapshot.matches({ voiced: 'sounding' }),
    seek: (seconds: number) => send({ type: 'listen.seek', seconds }),
    page: (position: number) => send({ type: 'listen.page', position }),
  };
}
