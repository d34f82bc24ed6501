/**
 * The edition the reader's player plays (SPEC §2 Two-column mode, §4 Audio player): the second column's only when
 * the reader chose it (the saved `editionSelected`, set by that column's Listen toggle) and the second column is
 * shown; otherwise the first column's. A second edition kept in the address but not shown (a narrow screen, a class
 * code) never plays. The engine decides with this rule and the views read its answer.
 */
export type EditionSlot = 'primary' | 'secondary';

export function playingEdition(chosen: EditionSlot | null | undefined, secondaryShown: boolean): EditionSlot {
  return chosen === 'secondary' && secondaryShown ? 'secondary' : 'primary';
}
