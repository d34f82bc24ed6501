/** Password rules: at least MIN_PASSWORD_LENGTH characters and not in our list of common passwords. */
import fs from 'node:fs';
import path from 'node:path';

/** Shortest password accepted. @default 8 */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted (bounds hashing work). Not in the spec. @default 128 */
export const MAX_PASSWORD_LENGTH = 128;

export const PASSWORD_TOO_SHORT_MESSAGE = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const PASSWORD_TOO_LONG_MESSAGE = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
export const PASSWORD_TOO_COMMON_MESSAGE = 'This password is too common. Choose one that is harder to guess.';

let common: Set<string> | null = null;

/** The list in common-passwords.txt, lower-cased. */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith('#')),
  );
  return common;
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE;
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG_MESSAGE;
  if (commonPasswords().has(password.trim().toLowerCase())) return PASSWORD_TOO_COMMON_MESSAGE;
  return null;
}
