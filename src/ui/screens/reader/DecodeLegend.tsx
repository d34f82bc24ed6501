/** The legend beside decoded text (SPEC §8; docs/phonics.md): each cue, styled as the text shows it, with its meaning. */
import { DECODE_LEGEND } from '../../../domain/decode';

/** A sample word per cue, marked up as the decoder marks it. */
const SAMPLES: Record<string, string> = {
  'dc-syl': '<span class="dc-syl">ti</span><span class="dc-syl">ger</span>',
  'dc-digraph': '<span class="dc-digraph">sh</span>ip',
  'dc-team': 'r<span class="dc-team">ai</span>n',
  'dc-r': 'b<span class="dc-r">ir</span>d',
  'dc-silent': 'cak<span class="dc-silent dc-silent-e">e</span>',
  'dc-cle': '<span class="dc-syl">ta</span><span class="dc-syl dc-cle">ble</span>',
  'dc-heart': '<span class="dc-heart">said</span>',
};

/** `note`: what decode mode is for (highlightDecode's DECODE_PHONICS_NOTE, passed in by the column, whose chunk has it). */
export function DecodeLegend({ note }: { note: string }) {
  return (
    <aside aria-label="Decode legend" className="mt-10 rounded-2xl border border-line bg-surface p-5 font-sans">
      <h2 className="font-sans text-sm font-semibold text-primary-900">Decode legend</h2>
      <p className="mt-1 text-sm text-ink-muted">{note}</p>
      <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {DECODE_LEGEND.map((entry) => (
          <div key={entry.className} className="flex items-baseline gap-3">
            <dt className="min-w-[4.5rem] font-serif text-lg text-ink">
              <span className="decode-sample" lang="en" dangerouslySetInnerHTML={{ __html: SAMPLES[entry.className] ?? entry.example }} />
            </dt>
            <dd className="text-sm">
              <span className="font-semibold text-primary-900">{entry.label}</span>
              <span className="text-ink-muted"> — {entry.description}</span>
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
