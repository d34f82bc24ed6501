/** Reading levels (SPEC §3). SILVER is the easiest, GOLD easier, ORIGINAL the full text. */
export const LEVELS = ['GOLD', 'SILVER', 'ORIGINAL'] as const;
export type Level = (typeof LEVELS)[number];

/** Display order: easiest first. */
export const LEVEL_ORDER: readonly Level[] = ['SILVER', 'GOLD', 'ORIGINAL'];

export const LEVEL_LABELS: Record<Level, string> = {
  GOLD: 'Gold',
  SILVER: 'Silver',
  ORIGINAL: 'Original',
};

/** The colour of each level's chip and dot. */
export const LEVEL_COLORS: Record<Level, { background: string; foreground: string; dot: string }> = {
  GOLD: { background: '#f6e7b0', foreground: '#5c4500', dot: '#d4a514' },
  SILVER: { background: '#e4e7eb', foreground: '#33404d', dot: '#8a96a3' },
  ORIGINAL: { background: '#d5ece6', foreground: '#103a3a', dot: '#2f8f7a' },
};

export function isLevel(value: string): value is Level {
  return (LEVELS as readonly string[]).includes(value);
}

export function sortLevels(levels: readonly Level[]): Level[] {
  return [...levels].sort((a, b) => LEVEL_ORDER.indexOf(a) - LEVEL_ORDER.indexOf(b));
}
