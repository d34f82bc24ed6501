import type { ListenFlowContext, ListenPlayer } from './listenFlow.types';

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
