/**
 * Playback speed (SPEC §3 "Audio playback speeds", §2 query parameter `playbackSpeed`). The saved speeds are a
 * map from edition id to speed; the `playbackSpeed` query parameter carries the same map as a comma-separated
 * list of `editionId:speed` pairs, or the word `default` to reset every edition to the default speed.
 */
import { DEFAULT_PLAYBACK_SPEED, PLAYBACK_SPEEDS } from './constants';

export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];
/** Saved speeds by edition id (as a string key, the way JSON keeps it). */
export type PlaybackSpeedMap = Record<string, number>;

/** What a `playbackSpeed` query parameter asks for. */
export type PlaybackSpeedRequest =
  /** `default`: forget every saved speed. */
  | { kind: 'reset' }
  /** Set these editions' speeds (other editions keep theirs). */
  | { kind: 'set'; speeds: PlaybackSpeedMap };

/** Longest parameter read; anything longer is ignored whole. @default 2000 */
export const MAX_PLAYBACK_SPEED_PARAM_LENGTH = 2000;

export function isPlaybackSpeed(value: unknown): value is PlaybackSpeed {
  return typeof value === 'number' && (PLAYBACK_SPEEDS as readonly number[]).includes(value);
}

/** The speed saved for an edition, or the default (1). */
export function speedFor(map: PlaybackSpeedMap | null | undefined, editionId: number | null | undefined): PlaybackSpeed {
  if (editionId == null || !map) return DEFAULT_PLAYBACK_SPEED;
  const saved = map[String(editionId)];
  return isPlaybackSpeed(saved) ? saved : DEFAULT_PLAYBACK_SPEED;
}

const PAIR = /^(\d{1,12}):(\d{1,2}(?:\.\d{1,4})?)$/;

/**
 * Read a `playbackSpeed` query parameter. `default` (any case) resets. Otherwise each comma-separated
 * `editionId:speed` pair whose id is a positive whole number and whose speed is one of the spec's speeds is
 * kept; every other pair is ignored. Returns null when nothing usable is left (or no parameter was given).
 */
export function parsePlaybackSpeedParam(value: string | null | undefined): PlaybackSpeedRequest | null {
  if (value == null) return null;
  const text = value.trim();
  if (text === '' || text.length > MAX_PLAYBACK_SPEED_PARAM_LENGTH) return null;
  if (text.toLowerCase() === 'default') return { kind: 'reset' };
  const speeds: PlaybackSpeedMap = {};
  for (const part of text.split(',')) {
    const m = PAIR.exec(part.trim());
    if (!m) continue;
    const id = Number(m[1]);
    const speed = Number(m[2]);
    if (!Number.isSafeInteger(id) || id < 1 || !isPlaybackSpeed(speed)) continue;
    speeds[String(id)] = speed;
  }
  return Object.keys(speeds).length > 0 ? { kind: 'set', speeds } : null;
}

/** Write speeds as a `playbackSpeed` value: pairs sorted by edition id, or `default` when there are none. */
export function formatPlaybackSpeedParam(map: PlaybackSpeedMap): string {
  const pairs = Object.entries(map)
    .filter(([id, speed]) => /^\d+$/.test(id) && Number(id) >= 1 && isPlaybackSpeed(speed))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([id, speed]) => `${Number(id)}:${speed}`);
  return pairs.length > 0 ? pairs.join(',') : 'default';
}

/** Apply a request to the saved map. */
export function applyPlaybackSpeedRequest(map: PlaybackSpeedMap, request: PlaybackSpeedRequest): PlaybackSpeedMap {
  return request.kind === 'reset' ? {} : { ...map, ...request.speeds };
}
