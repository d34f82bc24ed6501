/**
 * Everything the engine touches comes in through these ports, so it runs the same in a browser, in Node, in
 * tests and in other front ends. Nothing in src/engine or src/machines reaches for window, document,
 * localStorage, fetch or Date.now.
 */
import type { ApiClient } from '../api/client';

/** A string key-value store: localStorage in the browser, a Map in Node and tests. */
export interface StoragePort {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type TimerHandle = unknown;

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

/**
 * The API as the engine needs it: `src/api`'s client implements the required part. The optional calls arrive
 * with later issues (on-demand editions, accounts, narration, decode); without them the engine degrades
 * honestly (a missing edition is 'Passage not found', a class code cannot be accepted).
 */
/** GET /visitors/me as the engine uses it: `titleIds` are the titles the code's features apply to. */
export interface VisitorAnswer {
  groupCodeValid: boolean;
  features: string[];
  titleIds?: number[];
}

export type ApiPort = Pick<ApiClient, 'getPublication' | 'getPassage'> &
  Partial<Pick<ApiClient, 'createEdition' | 'getAudioOnly' | 'getPassageAudio'>> & {
  getVisitor?(options: { groupCode: string }): Promise<VisitorAnswer>;
  updateRole?(role: 'INDIVIDUAL' | 'TEACHER'): Promise<unknown>;
  getSpeechMarks?(passageId: number): Promise<{ offset: number; time: number }[]>;
  getDecodedText?(passageId: number, editionId: number, position: number): Promise<string>;
};

export interface EnginePorts {
  api: ApiPort;
  storage: StoragePort;
  clock: ClockPort;
  audio?: AudioPort;
  /** The listen flow's own audio element (src/engine/listenDriver.ts), apart from the reader's. Without it the listen flow is silent. */
  listenAudio?: AudioPort;
  analytics: AnalyticsPort;
  navigation?: NavigationPort;
  clipboard?: ClipboardPort;
  logger?: LoggerPort;
}

/** The tracked events of SPEC §4, spelled as the spec spells them. */
export const TRACKED_EVENTS = [
  'Changed Audio Settings',
  'Closed Audio Player',
  'Copied Magic Link',
  'Opened Audio Player',
  'Paused Audio',
  'Resumed Audio',
  'Signed In',
  'Signed Out',
  'Viewed Catalog',
  'Viewed Novel',
  'Viewed Passage',
  'Visited URL',
] as const;
export type TrackedEvent = (typeof TRACKED_EVENTS)[number];
