/** Pure reading rules shared by the engine and the views: edition references, closest editions, clamping. */
import { DEFAULT_LANGUAGE } from './languages';
import { LEVEL_ORDER, isLevel, type Level } from './levels';

export interface EditionKey {
  language: string;
  level: Level;
}

export interface EditionLike {
  id: number;
  language: { code: string };
  level: Level;
  passageCount: number;
}

/** 'language-LEVEL'; a bare level means English (SPEC §2 Reader URL shape). */
export function parseEditionRef(ref: string): EditionKey | null {
  const trimmed = ref.trim();
  const dash = trimmed.lastIndexOf('-');
  const language = dash === -1 ? DEFAULT_LANGUAGE : trimmed.slice(0, dash).toLowerCase();
  const level = (dash === -1 ? trimmed : trimmed.slice(dash + 1)).toUpperCase();
  if (!language || !isLevel(level)) return null;
  return { language, level };
}

export function formatEditionRef(key: EditionKey): string {
  return `${key.language}-${key.level}`;
}

export function findEdition<E extends EditionLike>(editions: readonly E[], key: EditionKey): E | undefined {
  return editions.find((e) => e.language.code === key.language && e.level === key.level);
}

const levelDistance = (a: Level, b: Level) => Math.abs(LEVEL_ORDER.indexOf(a) - LEVEL_ORDER.indexOf(b));

/**
 * The edition to show after the reader picks a language: the same level when that edition exists, otherwise the
 * nearest level in that language (ties go to the harder level, which is the fuller text).
 */
export function closestForLanguage<E extends EditionLike>(editions: readonly E[], language: string, currentLevel: Level): E | undefined {
  const candidates = editions.filter((e) => e.language.code === language);
  return [...candidates].sort(
    (a, b) => levelDistance(a.level, currentLevel) - levelDistance(b.level, currentLevel) || LEVEL_ORDER.indexOf(b.level) - LEVEL_ORDER.indexOf(a.level),
  )[0];
}

/**
 * The edition to show after the reader picks a level: the same language when that edition exists, otherwise
 * that level in English, otherwise that level in the first language that has it.
 */
export function closestForLevel<E extends EditionLike>(editions: readonly E[], level: Level, currentLanguage: string): E | undefined {
  return (
    findEdition(editions, { language: currentLanguage, level }) ??
    findEdition(editions, { language: DEFAULT_LANGUAGE, level }) ??
    editions.find((e) => e.level === level)
  );
}

/** Keep a position within 1..max; anything not a positive number becomes 1. */
export function clampPosition(position: number, max: number): number {
  if (!Number.isFinite(position) || position < 1) return 1;
  return Math.min(Math.floor(position), Math.max(1, max));
}

/** Paging is clamped to 1..the largest passage count across the editions in view (SPEC §4). */
export function pagingMax(editions: readonly (EditionLike | undefined | null)[]): number {
  return Math.max(1, ...editions.map((e) => e?.passageCount ?? 0));
}

/** Most recent first, no duplicates, at most `cap`. */
export function pushRecent(list: readonly string[], item: string, cap: number): string[] {
  return [item, ...list.filter((x) => x !== item)].slice(0, cap);
}
