/** Numbers typed into digit-only inputs (SPEC §5: the catalog's page input and the jump input). */

/** Keep only the digits of typed text. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

/** The whole number that text is, around whitespace: digits only, so null for signs, decimals, letters or nothing. */
export function wholeNumberOf(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}
