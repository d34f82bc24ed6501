/**
 * Highlighting in step across both columns (docs/reading-aids.md): in two columns, while one column
 * plays with highlight on (the reader's default mode), the other column lights the sentence that matches the one
 * being spoken, or the whole paragraph when the two paragraphs have different numbers of sentences. The rule is
 * src/domain/alignment.ts; here the real narration plays in Chromium and the other column's highlight is read from
 * the CSS Custom Highlight API ('lectern-aligned') and the element's data-aligned-paragraph and -sentence.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage, type ReaderColumn } from './models/ReaderPage';
import { asLicensedReader } from './support/licensed';

const LIGHTHOUSE = '/the-lighthouse-keepers-apprentice/v1';
const BISCUIT = '/professor-biscuit-goes-missing/v1';

interface Aligned {
  paragraph: number | null;
  sentence: number | null;
  /** The text of every 'lectern-aligned' range on the page. */
  text: string[];
  /** Every such range lies inside this column's passage text. */
  inside: boolean;
}

/** The other column's aligned highlight, as this column's text element shows it. */
function aligned(column: ReaderColumn): Promise<Aligned> {
  return column.text.evaluate((el: HTMLElement) => {
    const ranges = [...((CSS.highlights.get('lectern-aligned') as Set<Range> | undefined) ?? [])];
    const num = (v: string | undefined) => (v === undefined ? null : Number(v));
    return {
      paragraph: num(el.dataset.alignedParagraph),
      sentence: num(el.dataset.alignedSentence),
      text: ranges.map((r) => r.toString()),
      inside: ranges.every((r) => el.contains(r.commonAncestorContainer)),
    };
  });
}

/** Where the aligned highlight is, as one number that grows as the passage is read. */
const place = (a: Aligned) => (a.paragraph ?? -1) * 1000 + (a.sentence ?? 0);

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test.describe('Highlighting in step across both columns', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  // Narration is made on demand and axe runs once: both are slow on a loaded 2-core machine.
  test.setTimeout(90_000);

  test('while the left column plays, the right column lights the matching sentence, and it moves on', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/es:original/1`);
    await reader.expectPosition(1);
    await expect(reader.secondary.passage).toHaveAttribute('lang', 'es');
    await expect(reader.secondary.passageNumber).toHaveText('1');
    expect(await aligned(reader.secondary)).toEqual({ paragraph: null, sentence: null, text: [], inside: true });

    // Play the left column: its own words light up (highlight is on), and the right column follows.
    await reader.primary.listenButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 20_000 });
    await expect.poll(async () => (await reader.highlighted(reader.primary)).index, { timeout: 20_000 }).not.toBeNull();
    await expect.poll(async () => (await aligned(reader.secondary)).sentence, { timeout: 15_000 }).not.toBeNull();
    const first = await aligned(reader.secondary);
    // Passage 1 has two paragraphs, and each has as many sentences in Spanish as in English: sentence for sentence.
    expect(first.paragraph).toBe(0);
    expect(first.text).toHaveLength(1);
    expect(first.inside).toBe(true);
    const spanish = (await reader.secondary.text.textContent()) ?? '';
    expect(spanish).toContain(first.text[0]);
    expect(first.text[0]).toMatch(/[.!?»”]$/);
    // The playing column keeps its own highlight; the right column has no spoken word of its own.
    expect((await reader.highlighted(reader.secondary)).index).toBeNull();
    expect((await aligned(reader.primary)).paragraph).toBeNull();

    // As the narration goes on, the right column's highlight moves to a later sentence.
    await expect.poll(async () => place(await aligned(reader.secondary)), { timeout: 30_000 }).toBeGreaterThan(place(first));
    const later = await aligned(reader.secondary);
    expect(later.text).toHaveLength(1);
    expect(later.text[0]).not.toBe(first.text[0]);
    expect(spanish).toContain(later.text[0]);

    // Paused, the highlight stays where it is; the page passes axe with both highlights showing.
    await reader.pauseButton.click();
    await expect(reader.audioStatus).toHaveText('Paused');
    await expect.poll(async () => (await aligned(reader.secondary)).text.length).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Closing the player takes the highlight away from both columns.
    await reader.closePlayerButton.click();
    await expect(reader.audioStatus).toHaveText('Closed');
    await expect.poll(() => aligned(reader.secondary)).toEqual({ paragraph: null, sentence: null, text: [], inside: true });
  });
});

/** Narration outside English needs a school license, and Professor Biscuit is a premium title. */
test.describe('Highlighting in step across both columns, licensed', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.setTimeout(90_000);
  test.use(asLicensedReader);

  test('while the right column plays, the left column lights the whole paragraph when the sentences do not pair', async ({ page }) => {
    const reader = new ReaderPage(page);
    // Passage 2: one paragraph in both, ten sentences in English and seven in Spanish.
    await reader.goto(`${BISCUIT}/en:original/es:original/2`);
    await reader.expectPosition(2);
    await expect(reader.secondary.passage).toHaveAttribute('lang', 'es');
    await reader.secondary.listenButton.click();
    await expect(reader.secondary.listenButton).toHaveAttribute('aria-pressed', 'true');
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 20_000 });
    await expect.poll(async () => (await reader.highlighted(reader.secondary)).index, { timeout: 20_000 }).not.toBeNull();
    await expect.poll(async () => (await aligned(reader.primary)).paragraph, { timeout: 15_000 }).toBe(0);

    const whole = await aligned(reader.primary);
    expect(whole.sentence).toBeNull();
    expect(whole.inside).toBe(true);
    expect(whole.text).toEqual([((await reader.primary.text.textContent()) ?? '').trim()]);
    expect((await aligned(reader.secondary)).paragraph).toBeNull();

    // The Spanish narration moves on; the English paragraph stays lit as a whole.
    const word = (await reader.highlighted(reader.secondary)).index!;
    await expect.poll(async () => (await reader.highlighted(reader.secondary)).index!, { timeout: 15_000 }).toBeGreaterThan(word + 2);
    expect(await aligned(reader.primary)).toEqual(whole);
  });
});
