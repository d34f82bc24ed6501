/**
 * Passage numbers typed by the reader (SPEC §5 "Passage number (select page)" and "Jump input"). Pure rules,
 * shared by the select-passage page and the teaser's jump input.
 */
import { wholeNumberOf } from './digits';

/** SPEC §5: the select page's input is empty. */
export const PASSAGE_NUMBER_REQUIRED = 'Please enter a passage number';
/** SPEC §5: the select page's input is not a number. */
export const PASSAGE_NUMBER_NOT_A_NUMBER = 'Please enter a valid number';
/** SPEC §5: the number is below 1 or above the passage count. */
export const passageNumberOutOfRange = (max: number) => `Please enter a number between 1 and ${max}`;

export type PassageNumberResult =
  | { ok: true; position: number }
  | { ok: false; message: string };

/** The highest passage number: the edition's passage count, or 1 when the edition is unknown (SPEC §5). */
export function passageNumberMax(passageCount: number | null | undefined): number {
  return passageCount && passageCount >= 1 ? Math.floor(passageCount) : 1;
}

/**
 * Validate the select page's passage number against 1..max (max = the passage count, 1 when the edition is
 * unknown). Whitespace around the number is ignored. A passage number is a whole number: '2.5' or '1e1' are not
 * valid numbers.
 */
export function validatePassageNumber(text: string, passageCount: number | null | undefined): PassageNumberResult {
  const trimmed = text.trim();
  const max = passageNumberMax(passageCount);
  if (trimmed === '') return { ok: false, message: PASSAGE_NUMBER_REQUIRED };
  if (!/^[+-]?\d+$/.test(trimmed)) return { ok: false, message: PASSAGE_NUMBER_NOT_A_NUMBER };
  const value = Number(trimmed);
  if (value < 1 || value > max) return { ok: false, message: passageNumberOutOfRange(max) };
  return { ok: true, position: value };
}

/** What a jump input keeps of typed text: its digits only (SPEC §5 "Jump input accepts only positive integers"). */
export { digitsOnly as keepDigits } from './digits';

/**
 * A jump target: a positive whole number (greater than 0), kept within the passage count. Null for anything
 * else (empty, zero, signs, decimals, letters).
 */
export function parseJumpTarget(text: string, passageCount: number): number | null {
  const value = wholeNumberOf(text);
  if (value === null || value < 1) return null;
  return Math.min(value, passageNumberMax(passageCount));
}

/** How far through the edition a position is: round(position / passageCount * 100), 0 without passages (SPEC §9). */
export function percentComplete(position: number, passageCount: number): number {
  if (!(passageCount > 0) || !(position > 0)) return 0;
  return Math.round((Math.min(position, passageCount) / passageCount) * 100);
}
