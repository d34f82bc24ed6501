/**
 * The player's rules as pure functions of its context: what the audio port should hold, whether a narration is
 * needed, what is saved. The machine's guards call these, and so does the engine's snapshot.
 */
import { LISTENING_EVENTS, type TrackedEvent } from '../../domain/analytics';
import { applyPlaybackSpeedRequest, isPlaybackSpeed, parsePlaybackSpeedParam, speedFor } from '../../domain/playbackSpeed';
import type { Passage } from '../../domain/schemas';
import type { AudioSettings } from '../../domain/settings';
import type { NarrationState, PlayerContext, PlayerControlState, PlayerInput } from './player.types';

/** The passage needs a license or a class code: it carries no text and no narration. */
export const isBlocked = (passage: Passage | null) => Boolean(passage && (passage.licenseRequired || passage.groupCodeRequired));

export const isOpen = (state: PlayerControlState) => state !== 'closed';

/** The narration known for a passage: an earlier answer, or the url the passage came with. */
export function narrationFor(context: Pick<PlayerContext, 'narration'>, passage: Passage): NarrationState | undefined {
  return context.narration[passage.id] ?? (passage.audio?.url ? { status: 'ready', url: passage.audio.url, duration: 0 } : undefined);
}

/** What the player plays now. */
export interface PlayerPlan {
  /** The edition has narration and the passage is readable. */
  enabled: boolean;
  narration: NarrationState | undefined;
  /** What the audio port should hold: `${passageId}|${url}` while the player is open with ready narration. */
  key: string | null;
  url: string | null;
  speed: number;
}

export function playerPlan(context: PlayerContext, state: PlayerControlState): PlayerPlan {
  const { passage, edition } = context.track;
  const enabled = Boolean(edition?.audioEnabled && passage && !isBlocked(passage));
  const narration = enabled && passage ? narrationFor(context, passage) : undefined;
  const ready = narration?.status === 'ready' ? narration : null;
  const key = isOpen(state) && passage && ready ? `${passage.id}|${ready.url}` : null;
  return { enabled, narration, key, url: key ? ready!.url : null, speed: speedFor(context.speeds, edition?.id) };
}

/** The head of a narration still being made (it has a seam). */
export const isHead = (narration: NarrationState | undefined) => narration?.status === 'ready' && narration.seam !== undefined;

/**
 * The passage needs its narration: the player is open and nothing is known yet, or highlight asked for the
 * passage's speech marks, it lacks them, and they have not been asked for; or only its head is known (the whole
 * is loaded next, while the head plays).
 */
export function wantsNarration(context: PlayerContext, state: PlayerControlState): boolean {
  const { passage } = context.track;
  const plan = playerPlan(context, state);
  if (!plan.enabled || !passage) return false;
  const asked = context.narration[passage.id] !== undefined;
  const marks = context.marksFor === passage.id && !passage.audio?.speechMarks.length && !asked;
  const head = isHead(plan.narration) && (isOpen(state) || context.marksFor === passage.id);
  return (isOpen(state) && plan.narration === undefined) || marks || head;
}

/** What the narration load asks for: a passage asked for the first time takes its head, a head asks for the whole. */
export function narrationInput(context: PlayerContext) {
  const { id, editionId, position } = context.track.passage!;
  return { passageId: id, editionId, position, partial: context.narration[id]?.status === 'loading' };
}

/** The passage and edition that play, as a key: another one is paging (the saved time goes back to 0). */
export const savedPassage = (context: PlayerContext) => `${context.track.edition?.id ?? null}:${context.track.passage?.id ?? null}`;

/**
 * The seconds of audio heard between the shown second and a new audio time: the forward step, when it is a step of
 * playback (at most 2 s); a seek or a page turn adds nothing. Times come only from the playback actor, which runs
 * only while the player plays (`open.port.sounding`).
 */
export function heardStep(currentTime: number, time: number): number {
  const step = Math.floor(time) - currentTime;
  return step > 0 && step <= 2 ? step : 0;
}

/** What a tracked audio event says: the edition that plays, and for the events that end a stretch of listening the seconds heard. */
export function trackedProperties(context: PlayerContext, event: TrackedEvent): Record<string, unknown> {
  const properties: Record<string, unknown> = { editionId: context.track.edition?.id };
  if (LISTENING_EVENTS.includes(event)) properties.seconds = context.heard;
  return properties;
}

/** The audio port should hold another narration (or none) than it does, for an open player. */
export const isOtherAudio = (context: PlayerContext) => playerPlan(context, 'paused').key !== context.loadedKey;

/** A 'Play from here' time waits, and the narration it applies to is in the audio port. */
export function canApplyPendingSeek(context: PlayerContext): boolean {
  const key = playerPlan(context, 'paused').key;
  return context.pendingSeek !== null && key !== null && key === context.loadedKey && context.track.passage?.id === context.pendingSeek.passageId;
}

/** A playback report that moves what the player shows: another second, or a length first known. */
export const isNewSecond = (context: PlayerContext, time: number, duration: number) =>
  Math.floor(time) !== context.currentTime || (duration > 0 && duration !== context.duration);

/** What a playback report changes: the shown second, the length, the seconds heard. */
export const timeAfter = (context: PlayerContext, time: number, duration: number) => ({
  currentTime: Math.floor(time),
  duration: duration > 0 ? duration : context.duration,
  heard: context.heard + heardStep(context.currentTime, time),
});

/** Where a seek goes: within the narration's length when it is known. */
export const seekTarget = (context: PlayerContext, seconds: number) => Math.max(0, context.duration > 0 ? Math.min(seconds, context.duration) : seconds);

/** The saved speeds with a new one for the edition that plays. */
export const speedsWith = (context: PlayerContext, speed: number) => ({ ...context.speeds, [String(context.track.edition?.id)]: speed });

/** The saved speeds an address's playbackSpeed parameter asks for, or the same speeds when it asks for none. */
export function speedsFromAddress(context: PlayerContext, param: string | null) {
  const request = parsePlaybackSpeedParam(param);
  return request ? applyPlaybackSpeedRequest(context.speeds, request) : context.speeds;
}

/** The audio port holds the head of the narration the player should now hold whole: the whole goes on from it. */
export function continuesHead(context: PlayerContext): boolean {
  const key = playerPlan(context, 'paused').key;
  return context.loadedSeam !== null && key !== null && context.loadedKey !== null && key.split('|')[0] === context.loadedKey.split('|')[0];
}

/**
 * What the audio port is given: the plan's narration (or none) at its speed. After the passage's head, the whole
 * goes on where the head was, at most at its seam (`upTo`, seconds): the same audio and marks up to there.
 */
export function audioLoad(context: PlayerContext) {
  const plan = playerPlan(context, 'paused');
  return { url: plan.url, rate: plan.speed, upTo: continuesHead(context) ? context.loadedSeam : null };
}

/** What the player then knows of the audio port: what it holds, from 0 (or where the head was), and its length when known. */
export function loadedState(context: PlayerContext) {
  const { key, narration } = playerPlan(context, 'paused');
  const ready = narration?.status === 'ready' ? narration : null;
  return { loadedKey: key, loadedSeam: ready?.seam ?? null, currentTime: continuesHead(context) ? context.currentTime : 0, duration: ready?.duration ?? 0 };
}

/** A speed the player offers, for an edition that plays. */
export const canSetSpeed = (context: PlayerContext, speed: number) => isPlaybackSpeed(speed) && context.track.edition !== null;

/** The playing passage's narration is asked for (a head it has keeps playing meanwhile). */
export function narrationAsked(context: PlayerContext) {
  const id = context.track.passage!.id;
  return { loadingFor: id, narration: isHead(context.narration[id]) ? context.narration : { ...context.narration, [id]: { status: 'loading' as const } } };
}

/** The narration asked for answered: ready, or failed (logged only, SPEC §8). */
export const narrationAnswered = (context: PlayerContext, state: NarrationState) => ({ loadingFor: null, narration: { ...context.narration, [context.loadingFor!]: state } });

/** The player's start: paused when audio settings were saved on an earlier visit (else closed), at their speeds. */
export function playerInput(saved: AudioSettings | null): PlayerInput {
  return { hasSavedSettings: saved !== null, speeds: saved?.playbackSpeed ?? {} };
}
