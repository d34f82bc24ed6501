/** Overview tab (SPEC §2 Publication detail): levels, accessibility features, tags, text information. */
import { Button, Disclosure, DisclosureGroup, DisclosurePanel, Heading } from 'react-aria-components';
import { FIXED_TAGS, LANGUAGE_COUNT_TEXT } from '../../../domain/constants';
import type { Publication } from '../../../domain/schemas';
import { ChevronDownIcon, GlobeIcon, LetterIcon } from '../../components/Icons';
import { LevelChip } from '../../components/LevelChip';
import { SafeHtml } from '../../components/SafeHtml';
import { availableLevels } from './publicationView';

const sectionHeading = 'font-serif text-lg font-semibold text-primary-900';

export function OverviewPanel({ publication }: { publication: Publication }) {
  const levels = availableLevels(publication);
  return (
    <div className="space-y-9">
      <section aria-labelledby="overview-levels">
        <h2 id="overview-levels" className={sectionHeading}>
          Available Reading Levels
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2" aria-labelledby="overview-levels">
          {levels.map((level) => (
            <li key={level}>
              <LevelChip level={level} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="overview-accessibility">
        <h2 id="overview-accessibility" className={sectionHeading}>
          Accessibility Features
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          <li className="flex items-start gap-3 rounded-xl border border-line bg-paper px-4 py-3">
            <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-lg bg-primary-100 text-primary-800">
              <LetterIcon size={20} />
            </span>
            <span>
              <span className="block font-semibold text-ink">Decode Mode</span>
              <span className="block text-sm text-ink-muted">Visually reinforces phonics. English only.</span>
            </span>
          </li>
          <li className="flex items-start gap-3 rounded-xl border border-line bg-paper px-4 py-3">
            <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-lg bg-primary-100 text-primary-800">
              <GlobeIcon size={20} />
            </span>
            <span>
              <span className="block font-semibold text-ink">{LANGUAGE_COUNT_TEXT}</span>
              <span className="block text-sm text-ink-muted">Read the same story in another language.</span>
            </span>
          </li>
        </ul>
      </section>

      <section aria-labelledby="overview-tags">
        <h2 id="overview-tags" className={sectionHeading}>
          Tags
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2" aria-labelledby="overview-tags">
          {FIXED_TAGS.map((tag) => (
            <li key={tag} className="rounded-full border border-line-strong bg-surface px-3 py-1 text-sm text-ink-muted">
              {tag}
            </li>
          ))}
        </ul>
      </section>

      {publication.infoData.length > 0 && (
        <section aria-labelledby="overview-info">
          <h2 id="overview-info" className={sectionHeading}>
            Text Information
          </h2>
          <DisclosureGroup allowsMultipleExpanded className="mt-3 divide-y divide-line rounded-xl border border-line bg-surface">
            {publication.infoData.map((section, index) => (
              <Disclosure key={`${index}-${section.title}`} id={`info-${index}`} className="group">
                <Heading level={3} className="m-0">
                  <Button
                    slot="trigger"
                    className="flex w-full items-center justify-between gap-4 rounded-xl px-4 py-3.5 text-start font-serif text-base font-semibold text-primary-900 data-[hovered]:bg-primary-50"
                  >
                    {section.title}
                    <ChevronDownIcon size={18} className="shrink-0 transition-transform group-data-[expanded]:rotate-180" />
                  </Button>
                </Heading>
                <DisclosurePanel>
                  <SafeHtml html={section.body} className="prose-lectern px-4 pt-1 pb-5 text-[0.95rem] leading-relaxed text-ink" />
                </DisclosurePanel>
              </Disclosure>
            ))}
          </DisclosureGroup>
        </section>
      )}
    </div>
  );
}
