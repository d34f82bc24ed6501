/**
 * The two audio I/O actors, written once and used by both the reader and the listen flow:
 * - `narrationActor` asks the api port for a passage's narration through the one narration wait
 *   (src/domain/narrationPoll.ts): every NARRATION_POLL_MS on the clock port while the server answers 202
 *   'generating', at most NARRATION_MAX_POLLS times; it stops waiting when its machine stops it. With `partial`
 *   in its input, the head of a narration still being made (a 202's `partial`) ends the wait, with its `seam`;
 * - `playbackActor` plays an audio port while it runs: it starts playing, reports the time every AUDIO_TICK_MS
 *   and the end, and pauses when stopped. Loading a url and seeking are the machine's actions, not the actor's.
 */
import { fromCallback, fromPromise } from 'xstate';
import { AUDIO_NOT_AVAILABLE, AUDIO_TICK_MS } from '../domain/constants';
import { PortFailure } from '../domain/failures';
import { hasPartial, NARRATION_STILL_GENERATING, waitForNarration } from '../domain/narrationPoll';
import type { PassageAudio } from '../domain/schemas';
import type { Narration, NarrationInput, PlaybackReport } from '../machines/shared/audio';
import type { WordClip } from '../machines/wordAudio';
import type { AudioPort, ClockPort, LoggerPort, TimerHandle } from './ports';

export { NARRATION_MAX_POLLS, NARRATION_POLL_MS } from '../domain/narrationPoll';

export function narrationActor(fetchNarration: ((input: NarrationInput) => Promise<PassageAudio>) | undefined, clock: ClockPort) {
  return fromPromise<Narration, NarrationInput>(async ({ input, signal }) => {
    if (!fetchNarration) throw new PortFailure('not_found', 404, AUDIO_NOT_AVAILABLE);
    const answer = await waitForNarration(() => fetchNarration(input), { clock, signal, accept: input.partial ? hasPartial : undefined });
    if (answer.status === 'ready') return { url: answer.audio.url, speechMarks: answer.audio.speechMarks, duration: answer.audio.duration / 1000 };
    const head = input.partial ? answer.partial : undefined;
    if (!head) throw new PortFailure('unavailable', 503, NARRATION_STILL_GENERATING);
    return { url: head.url, speechMarks: head.speechMarks, duration: head.duration / 1000, seam: head.seam / 1000 };
  });
}

/** How often a word's clip checks whether its audio reached the word's end. @default 15 */
export const WORD_CLIP_POLL_MS = 15;
/** A word's clip ends at the latest this long after its length, should the audio stall. @default 3000 */
export const WORD_CLIP_GRACE_MS = 3000;

/**
 * Plays one stretch of a narration (a tapped word) on its own audio port: loads the url unless it
 * is already in the port, seeks to the start, plays, and pauses at the end (the port's time checked every
 * WORD_CLIP_POLL_MS on the clock), at the audio's own end, or when its machine stops it.
 */
export function wordClipActor(audio: AudioPort | undefined, clock: ClockPort, logger: LoggerPort) {
  let loaded: string | null = null;
  return fromPromise<void, WordClip>(({ input, signal }) =>
    new Promise<void>((resolve) => {
      if (!audio) return resolve();
      audio.pause();
      if (loaded !== input.url) {
        audio.load(input.url);
        loaded = input.url;
      }
      audio.seek(input.start);
      let poll: TimerHandle = null;
      let offEnded = () => {};
      const finish = () => {
        clock.clearTimeout(poll);
        clock.clearTimeout(deadline);
        offEnded();
        audio.pause();
        resolve();
      };
      const deadline = clock.setTimeout(finish, (input.end - input.start) * 1000 + WORD_CLIP_GRACE_MS);
      offEnded = audio.onEnded(finish);
      signal.addEventListener('abort', finish, { once: true });
      const check = () => {
        if (audio.currentTime() >= input.end) finish();
        else poll = clock.setTimeout(check, WORD_CLIP_POLL_MS);
      };
      audio.play().then(check, (error: unknown) => {
        logger.warn('A word could not play', error);
        finish();
      });
    }),
  );
}

export function playbackActor(audio: AudioPort | undefined, clock: ClockPort, logger: LoggerPort) {
  return fromCallback<{ type: 'playback.noop' }, void>(({ sendBack }) => {
    if (!audio) return () => {};
    const report = (event: PlaybackReport) => sendBack(event);
    audio.play().catch((error: unknown) => {
      logger.warn('Audio could not play', error);
      if ((error as { name?: string } | null)?.name === 'NotAllowedError') report({ type: 'playback.refused' });
    });
    const tick = () => report({ type: 'playback.time', time: audio.currentTime(), duration: audio.duration() });
    let handle = clock.setTimeout(function again() {
      tick();
      handle = clock.setTimeout(again, AUDIO_TICK_MS);
    }, AUDIO_TICK_MS);
    // The loaded audio's own length is known at once: report it before the first tick.
    tick();
    const offEnded = audio.onEnded(() => report({ type: 'playback.ended' }));
    return () => {
      clock.clearTimeout(handle);
      offEnded();
      audio.pause();
    };
  });
}
