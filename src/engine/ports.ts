/**
 * Everything the engine touches comes in through these ports, so it runs the same in a browser, in Node, in
 * tests and in other front ends. Nothing in src/engine or src/machines reaches for window, document,
 * localStorage, fetch or Date.now, and nothing here imports src/api: the engine declares what it needs, and
 * `src/api/engineApi.ts` adapts the HTTP client to it.
 */
import type { OnDemandEditionBody, Passage, PassageAudio, Publication } from '../domain/schemas';


/** A string key-value store: localStorage in the browser, a Map in Node and tests. */
export interface StoragePort {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type TimerHandle = unknown;

/** The engine's time: XState schedules every delayed event on it, and the narration polls wait on it. */
export interface ClockPort {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** One audio element's worth of playback. */
export interface AudioPort {
  load(url: string | null): void;
  play(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  setRate(rate: number): void;
  currentTime(): number;
  duration(): number;
  /** Called when playback reaches the end. Returns an unsubscribe. */
  onEnded(listener: () => void): () => void;
}

export interface AnalyticsPort {
  track(event: TrackedEvent, properties?: Record<string, unknown>): void;
}

export interface NavigationPort {
  /** Replace (not push) the address, e.g. after removing ?groupCode=. */
  replace(path: string): void;
  push(path: string): void;
  /** The current path and query. */
  current(): string;
}

export interface ClipboardPort {
  writeText(text: string): Promise<void>;
}

export interface LoggerPort {
  error(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
}

import type { TrackedEvent } from '../domain/analytics';
export { FAILURE_CODES, PortFailure, failureOf, type FailureCode } from '../domain/failures';

/** GET /visitors/me as the engine uses it: `titleIds` are the titles the code's features apply to. */
export interface VisitorAnswer {
  groupCodeValid: boolean;
  features: string[];
  titleIds?: number[];
}

/**
 * The API as the engine needs it. Every call rejects with a PortFailure. The optional calls are the ones a
 * front end may leave out; without them the engine degrades honestly (a missing edition is 'Passage not found',
 * a class code cannot be accepted, the reader is silent).
 */
export interface ApiPort {
  getPublication(slug: string, version?: string): Promise<Publication>;
  /** `background` marks a prefetch. */
  getPassage(editionId: number, position: number, options?: { background?: boolean }): Promise<Passage>;
  createEdition?(slug: string, body: OnDemandEditionBody): Promise<unknown>;
  /** The narration of the passage at a position (the listen flow). A gated passage rejects with its gate's code. */
  getAudioOnly?(editionId: number, position: number): Promise<PassageAudio>;
  /** A passage's narration: ready with url, speech marks and duration (ms), or still generating. */
  getPassageAudio?(passageId: number, editionId: number): Promise<PassageAudio>;
  getVisitor?(options: { groupCode: string }): Promise<VisitorAnswer>;
  updateRole?(role: 'INDIVIDUAL' | 'TEACHER'): Promise<unknown>;
  getDecodedText?(passageId: number, editionId: number, position: number): Promise<string>;
}

export interface EnginePorts {
  api: ApiPort;
  storage: StoragePort;
  clock: ClockPort;
  audio?: AudioPort;
  /** The listen flow's own audio element (src/machines/listenFlow), apart from the reader's. Without it the listen flow is silent. */
  listenAudio?: AudioPort;
  /** The audio element a tapped word plays on (src/machines/wordAudio), apart from the reader's. Without it words are silent. */
  wordAudio?: AudioPort;
  analytics: AnalyticsPort;
  navigation?: NavigationPort;
  clipboard?: ClipboardPort;
  logger?: LoggerPort;
}

export { TRACKED_EVENTS, type TrackedEvent } from '../domain/analytics';
