/**
 * Pure rules of the listen flow: its start context from the input, and what it knows of each passage's narration
 * (which position a load is for, which answer is ready). The machine's flow is its states and transitions.
 */
import { initialTransition } from 'xstate';
import { failureOf } from '../../domain/failures';
import { listenAudioMachine, type ListenAudioState } from '../listenAudio';
import type { Narration, NarrationInput } from '../shared/audio';
import type { ListenFlowContext, ListenFlowInput, NarrationAnswer, NarrationSlot } from './listenFlow.types';

/** The narration load of the current passage, and the prefetch of the next one (their answers arrive as `xstate.done.actor.<slot>`). */
export const NARRATION_SLOTS = { current: 'narration.current', next: 'narration.next' } as const;

/** A failure that is a gate (403 license_required / group_code_required), not a fault. */
export function isGateFailure(error: unknown): boolean {
  const code = failureOf(error).code;
  return code === 'license_required' || code === 'group_code_required';
}

export function initialListenContext(input: ListenFlowInput): ListenFlowContext {
  const requested = Math.max(1, input.position ?? 1);
  // Without a passage count, isLastPage says whether there is a next passage.
  const passageCount = Math.max(1, input.passageCount ?? (input.isLastPage ? requested : requested + 1));
  const position = Math.min(requested, passageCount);
  // The player's start state, as its own logic picks it from its input (before its first report arrives).
  const [player] = initialTransition(listenAudioMachine, { autoPlay: input.autoPlay, isLastPage: position >= passageCount });
  return {
    position,
    passageCount,
    editionId: input.editionId ?? 0,
    audioEnabled: input.editionId !== undefined && (input.audioEnabled ?? true),
    basePath: input.basePath ?? null,
    language: input.language ?? null,
    locked: input.audioLocked,
    refused: false,
    narrations: {},
    loadedUrl: null,
    currentTime: 0,
    duration: 0,
    player: { state: player.value as ListenAudioState, autoPlay: player.context.autoPlay },
  };
}

export const isLastPassage = (c: ListenFlowContext) => c.position >= c.passageCount;

/** A passage of this edition other than the current one. */
export const isOtherPassage = (c: ListenFlowContext, position: number) => position !== c.position && position >= 1 && position <= c.passageCount;

/** A position's narration once it is ready, or null. */
export function readyAt(c: ListenFlowContext, position: number): Extract<NarrationAnswer, { status: 'ready' }> | null {
  const answer = c.narrations[position];
  return answer?.status === 'ready' ? answer : null;
}

/** The current passage's ready narration that is not in the audio port yet, or null. */
export function unloadedCurrent(c: ListenFlowContext) {
  const ready = readyAt(c, c.position);
  return ready?.url === c.loadedUrl ? null : ready;
}

/** The position a slot is loading, or null. */
export function loadingBy(c: ListenFlowContext, slot: NarrationSlot): number | null {
  const found = Object.entries(c.narrations).find(([, answer]) => answer.status === 'loading' && answer.by === slot);
  return found ? Number(found[0]) : null;
}

/** The load of a position's narration on a slot, as the `loadNarration` actor's input. */
export const narrationInput = (c: ListenFlowContext, position: number): NarrationInput => ({ passageId: 0, editionId: c.editionId, position });

/**
 * The narrations once a slot starts loading a position: the position the slot was still loading is forgotten (its
 * load is stopped, and asked for again later).
 */
export function withLoad(c: ListenFlowContext, slot: NarrationSlot, position: number): Record<number, NarrationAnswer> {
  const stale = loadingBy(c, slot);
  const narrations = Object.fromEntries(Object.entries(c.narrations).filter(([p]) => Number(p) !== stale));
  return { ...narrations, [position]: { status: 'loading', by: slot } };
}

/** The narrations once a slot's load answers: a ready narration, or a failure (asked for again when the passage is shown again). */
export function withAnswer(c: ListenFlowContext, slot: NarrationSlot, output: Narration | null): Record<number, NarrationAnswer> {
  const answer: NarrationAnswer = output ? { status: 'ready', url: output.url, duration: output.duration } : { status: 'failed' };
  return { ...c.narrations, [Number(loadingBy(c, slot))]: answer };
}

/** The narrations when the view pages to a position: one whose load failed earlier is asked for again. */
export function forgetFailure(c: ListenFlowContext, position: number): Record<number, NarrationAnswer> {
  return Object.fromEntries(Object.entries(c.narrations).filter(([p, answer]) => Number(p) !== position || answer.status !== 'failed'));
}

/** The context once the current passage's ready narration is in the audio port: its url, from 0, with the narration's length. */
export function loadedCurrent(c: ListenFlowContext): Pick<ListenFlowContext, 'loadedUrl' | 'currentTime' | 'duration'> {
  const ready = readyAt(c, c.position);
  return { loadedUrl: ready?.url ?? null, currentTime: 0, duration: ready?.duration ?? 0 };
}
