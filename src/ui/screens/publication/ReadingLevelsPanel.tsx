/** Reading Levels tab (SPEC §2): a table per language group with a Read link per edition, then a Lexile note. */
import { Link } from 'wouter';
import type { Edition, Publication } from '../../../domain/schemas';
import { LevelChip } from '../../components/LevelChip';
import { editionGroups } from './publicationView';

const th = 'px-4 py-3 text-start text-xs font-semibold tracking-wide text-ink-muted uppercase';
const td = 'px-4 py-3 tabular-nums';

/**
 * Our computed readability figure for an edition (docs/readability.md), kept apart from Lexile: a Flesch–Kincaid
 * US grade for English, a reading ease (0–100, higher is easier) for the Spanish, Russian and Portuguese formulas,
 * 'N/A' where no formula applies.
 */
export function readabilityCell(edition: Pick<Edition, 'readabilityGrade' | 'readabilityFormula'> | undefined): {
  value: string;
  formula: string | null;
} {
  const grade = edition?.readabilityGrade;
  const formula = edition?.readabilityFormula ?? null;
  if (grade === null || grade === undefined || !formula) return { value: 'N/A', formula: null };
  if (/grade/i.test(formula)) return { value: grade < 1 ? 'Below grade 1' : `Grade ${grade.toFixed(1)}`, formula };
  return { value: `Ease ${grade.toFixed(1)}`, formula };
}

export function ReadingLevelsPanel({ publication }: { publication: Publication }) {
  const groups = editionGroups(publication);
  const editionOf = (key: string) => publication.editions.find((e) => `${e.language.code}:${e.level}` === key);
  return (
    <div className="space-y-8">
      {groups.map((group) => (
        <div key={group.id} role="region" aria-labelledby={`levels-${group.id}`} tabIndex={0} className="overflow-x-auto rounded-xl border border-line bg-surface">
          <table className="w-full min-w-[48rem] border-collapse text-sm">
            <caption id={`levels-${group.id}`} className="border-b border-line px-4 py-3 text-start font-serif text-base font-semibold text-primary-900">
              {group.caption}
            </caption>
            <thead className="bg-paper">
              <tr>
                <th scope="col" className={th}>Level</th>
                <th scope="col" className={th}>Language</th>
                <th scope="col" className={`${th} text-end`}>Total Words</th>
                <th scope="col" className={`${th} text-end`}>Unique Words</th>
                <th scope="col" className={th}>Lexile Level</th>
                <th scope="col" className={th}>Readability (computed)</th>
                <th scope="col" className={th}>
                  <span className="sr-only">Read</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {group.rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row" className="px-4 py-3 text-start font-normal">
                    <LevelChip level={row.level} size="sm" />
                  </th>
                  <td className="px-4 py-3">{row.language}</td>
                  <td className={`${td} text-end`}>{row.totalWords}</td>
                  <td className={`${td} text-end`}>{row.uniqueWords}</td>
                  <td className={td}>{row.lexile}</td>
                  <ReadabilityCell edition={editionOf(row.key)} />
                  <td className="px-4 py-2 text-end">
                    <Link
                      href={row.readHref}
                      aria-label={row.readLabel}
                      className="inline-flex items-center rounded-lg bg-primary-900 px-3.5 py-1.5 text-sm font-medium text-white hover:bg-primary-800"
                    >
                      Read
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}

      <section aria-labelledby="lexile-about" className="rounded-xl bg-primary-50 px-5 py-4 text-sm leading-relaxed text-primary-950">
        <h2 id="lexile-about" className="font-serif text-base font-semibold">
          About Lexile levels
        </h2>
        <p className="mt-2">
          A Lexile measure describes how demanding a text is to read, from below 200L for early readers to above
          1300L for complex adult texts. Higher numbers mean longer sentences and less familiar words. The same
          story at Silver or Gold level usually measures lower than the Original.
        </p>
        <p className="mt-2">
          We only show a Lexile measure when the text has actually been measured; otherwise you will see N/A. Use it
          as one guide among several: a reader’s interest and background knowledge matter as much as the number.
        </p>
        <p className="mt-2 text-xs text-primary-800">Lexile® is a registered trademark of MetaMetrics, Inc.</p>
        <h2 className="mt-4 font-serif text-base font-semibold">About the computed readability</h2>
        <p className="mt-2">
          The Readability (computed) column is our own figure, worked out from each edition’s sentence and word
          lengths; it is not a Lexile measure. English uses the Flesch–Kincaid grade level (a US school grade).
          Spanish, Russian and Portuguese use published reading-ease formulas (Fernández-Huerta, Oborneva, and
          Martins et al.), where higher means easier. Other languages show N/A.
        </p>
      </section>
    </div>
  );
}

function ReadabilityCell({ edition }: { edition: Edition | undefined }) {
  const { value, formula } = readabilityCell(edition);
  return (
    <td className={td} title={formula && edition?.readabilityGrade != null ? `${formula}: ${edition.readabilityGrade}` : undefined}>
      {value}
      {formula ? <span className="block text-xs text-ink-muted">{formula}</span> : null}
    </td>
  );
}
