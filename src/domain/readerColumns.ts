/** Which editions the reader's columns offer (SPEC §2 Reader screen: two-column mode, the level dropdown). */
import { LEVEL_ORDER, type Level } from './levels';

export interface ColumnEdition {
  language: string;
  level: Level;
}

interface EditionLike {
  language: { code: string };
  level: Level;
}

const same = (a: ColumnEdition, b: ColumnEdition | null) => !!b && a.language === b.language && a.level === b.level;

/**
 * The edition a second column opens with: the title's default right reader, unless the first column already
 * shows it; then the default left reader; then the first other edition; else the default right reader.
 */
export function defaultSecondEdition(
  defaultReader: { left: ColumnEdition; right: ColumnEdition },
  editions: readonly EditionLike[],
  primary: ColumnEdition | null,
): ColumnEdition {
  const { left, right } = defaultReader;
  if (!same(right, primary)) return right;
  if (!same(left, primary)) return left;
  const other = editions.find((e) => !same({ language: e.language.code, level: e.level }, primary));
  return other ? { language: other.language.code, level: other.level } : right;
}

/**
 * The levels the level dropdown offers for a language, easiest first: those with an edition in that language,
 * or, when the language has none (a missing edition), every level of the title.
 */
export function levelsForLanguage(editions: readonly EditionLike[], titleLevels: readonly Level[], language: string): Level[] {
  const own = new Set(editions.filter((e) => e.language.code === language).map((e) => e.level));
  const list = own.size ? [...own] : [...new Set(titleLevels)];
  return list.sort((a, b) => LEVEL_ORDER.indexOf(a) - LEVEL_ORDER.indexOf(b));
}
