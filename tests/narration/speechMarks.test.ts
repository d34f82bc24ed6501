/**
 * Speech marks in every voiced language, from real espeak-ng synthesis of short sentences written for this test,
 * plus the alignment rules on hand-made espeak events (merged words, zero-length events, code points).
 */
import { describe, expect, it } from 'vitest';
import { nativeBuild } from '../../server/narration/native';
import { narrate } from '../../server/narration/pipeline';
import { MP3_BITRATE_KBPS, readMp3Info } from '../../server/narration/mp3';
import { alignSpeechMarks, prepareSpokenText, speechMarkProblems, wordsOf, type EspeakWordEvent } from '../../server/narration/speechMarks';
import { segmenterLocale, UNVOICED_LANGUAGES, VOICED_LANGUAGES, voiceFor } from '../../server/narration/voices';
import { passagePlainText } from '../../src/domain/sanitize';

/** One or two short sentences per voiced language. */
const SENTENCES: Record<string, string> = {
  en: 'The cat sat on top of a mat in the house. Then it slept here and there!',
  es: 'El niño come una manzana roja. ¿Dónde está el perro?',
  ar: 'ذهب الولد إلى المدرسة في الصباح. الشمس جميلة اليوم.',
  zh: '小猫在花园里玩。今天天气很好。',
  vi: 'Con mèo ngủ trên ghế. Hôm nay trời đẹp quá.',
  bn: 'ছেলেটি স্কুলে যায়। আজ আকাশ খুব সুন্দর।',
  ur: 'لڑکا اسکول جاتا ہے۔ آج موسم بہت اچھا ہے۔',
  ru: 'Кошка спит на диване. Сегодня очень хорошая погода.',
  ha: 'Ti gason an ale lekòl. Jodi a solèy la bèl anpil.',
  pt: 'O menino come uma maçã vermelha. Onde está o cachorro?',
};

/** A word start checked without Intl.Segmenter: a letter or digit, not preceded by one (except in Chinese). */
function looksLikeWordStart(text: string, offset: number, language: string): boolean {
  const here = text.codePointAt(offset);
  if (here === undefined || !/[\p{L}\p{N}]/u.test(String.fromCodePoint(here))) return false;
  if (language === 'zh' || offset === 0) return true;
  return !/[\p{L}\p{N}\p{M}]/u.test(text[offset - 1]);
}

describe('narration in every voiced language', () => {
  it('covers the spec languages: all voiced but Filipino', () => {
    expect([...VOICED_LANGUAGES].sort()).toEqual(Object.keys(SENTENCES).sort());
    expect(UNVOICED_LANGUAGES).toEqual(['fil']);
    expect(voiceFor('fil')).toBeNull();
    expect(voiceFor('ha')).toBe('ht');
    expect(voiceFor('zh')).toBe('cmn');
  });

  // Both builds of espeak and LAME where the native helper is built (server/narration/native.ts), else the portable.
  const engines = nativeBuild() ? (['native', 'portable'] as const) : (['portable'] as const);
  for (const engine of engines)
  for (const [language, sentence] of Object.entries(SENTENCES)) {
    it(`${language}, ${engine}: marks rise, stay inside the audio and start words; the MP3 is sound`, async () => {
      const plain = passagePlainText(`<p>${sentence}</p>`);
      const result = await narrate(plain, language, { engine });
      const { speechMarks: marks, durationMs } = result;
      const words = wordsOf(plain, segmenterLocale(language));

      expect(marks.length).toBe(words.length);
      expect(speechMarkProblems(plain, marks, durationMs, segmenterLocale(language))).toEqual([]);
      for (let i = 0; i < marks.length; i++) {
        expect(Number.isInteger(marks[i].offset)).toBe(true);
        expect(looksLikeWordStart(plain, marks[i].offset, language), `${language} offset ${marks[i].offset}`).toBe(true);
        expect(marks[i].time).toBeGreaterThanOrEqual(0);
        expect(marks[i].time).toBeLessThan(durationMs);
        if (i > 0) {
          expect(marks[i].time).toBeGreaterThan(marks[i - 1].time);
          expect(marks[i].offset).toBeGreaterThan(marks[i - 1].offset);
        }
      }
      // The words take most of the audio: the last one starts in its second half.
      expect(marks.at(-1)!.time).toBeGreaterThan(durationMs / 2);

      const mp3 = result.mp3;
      const id3 = mp3[0] === 0x49 && mp3[1] === 0x44 && mp3[2] === 0x33;
      const sync = mp3[0] === 0xff && (mp3[1] & 0xe0) === 0xe0;
      expect(id3 || sync).toBe(true);
      const info = readMp3Info(mp3);
      expect(info).not.toBeNull();
      expect(info!.sampleRate).toBe(16000);
      expect(info!.durationMs).toBeGreaterThan(500);
      expect(Math.floor(info!.durationMs)).toBe(durationMs);
      expect(info!.bitrateKbps).toBeCloseTo(MP3_BITRATE_KBPS, 0);
    });
  }

  it('gives a passage with no words a short silence and no marks', async () => {
    const result = await narrate('', 'en');
    expect(result.speechMarks).toEqual([]);
    expect(result.durationMs).toBeGreaterThan(0);
    expect(readMp3Info(result.mp3)).not.toBeNull();
  });

  it('refuses an unvoiced language', async () => {
    await expect(narrate('Magandang umaga.', 'fil')).rejects.toThrow(/No voice/);
  });
});

describe('aligning espeak events to words', () => {
  const word = (position: number, length: number, time: number): EspeakWordEvent => ({ type: 'word', position, length, time });
  const end = (position: number, time: number): EspeakWordEvent => ({ type: 'end', position, length: 0, time });
  const align = (plain: string, events: EspeakWordEvent[], pcmDurationMs = 2000) =>
    alignSpeechMarks({ plain, spoken: prepareSpokenText(plain), events, pcmDurationMs, delayMs: 0, audioDurationMs: pcmDurationMs + 60, locale: 'en' });

  it('interpolates a word espeak merged into the one before ("of a")', () => {
    // 'top of a mat': espeak names 'top', 'of' and 'mat'; 'a' has no event.
    const marks = align('top of a mat', [word(1, 3, 0), word(5, 2, 300), word(10, 3, 600), end(13, 900)]);
    expect(marks.map((m) => m.offset)).toEqual([0, 4, 7, 9]);
    expect(marks[2].time).toBeGreaterThan(300);
    expect(marks[2].time).toBeLessThan(600);
    expect(marks[2].time).toBe(Math.round(300 + (300 * 3) / 5)); // 'of ' weighs 3, 'a ' weighs 2
  });

  it('drops zero-length events and events that name no word', () => {
    const marks = align('Yes & no.', [word(1, 3, 0), word(5, 0, 100), word(5, 1, 250), word(7, 2, 500), end(9, 800)]);
    expect(marks).toEqual([
      { offset: 0, time: 0 },
      { offset: 6, time: 500 },
    ]);
  });

  it('converts 1-based code points to string indices past astral characters', () => {
    const plain = '😀 big 🦉 dog';
    // Code points: 😀=1 ' '=2 b=3 i=4 g=5 ' '=6 🦉=7 ' '=8 d=9 o=10 g=11
    const marks = align(plain, [word(3, 3, 100), word(9, 3, 400)]);
    expect(marks.map((m) => plain.slice(m.offset, m.offset + 3))).toEqual(['big', 'dog']);
    expect(marks.map((m) => m.offset)).toEqual([3, 10]);
  });

  it('spreads a phrase espeak looked up whole over its words ("here and there")', () => {
    // espeak reports 'and' and 'there' at positions inside 'here'.
    const marks = align('here and there', [word(1, 4, 0), word(2, 4, 250), word(2, 4, 430)]);
    expect(marks).toEqual([
      { offset: 0, time: 0 },
      { offset: 5, time: 250 },
      { offset: 9, time: 430 },
    ]);
  });

  it('keeps the extra events of one word (the digits of "3.5") on that word', () => {
    const marks = align('3.5 times', [word(1, 3, 0), word(2, 3, 300), word(2, 3, 600), word(5, 5, 900)]);
    expect(marks).toEqual([
      { offset: 0, time: 0 },
      { offset: 4, time: 900 },
    ]);
  });

  it('stops interpolation at a clause end', () => {
    // 'look at it. Go': 'it' merged into 'at'; the pause after the full stop is not shared out.
    const marks = align('look at it. Go', [word(1, 4, 0), word(6, 2, 300), end(11, 500), word(13, 2, 1200)]);
    expect(marks[2].time).toBeLessThan(500);
  });

  it('maps positions through the spoken text (markup characters, added full stops)', () => {
    const spoken = prepareSpokenText('Chapter One\n2 < 3');
    expect(spoken.text).toBe('Chapter One.\n2   3');
    expect(spoken.toPlain.length).toBe(spoken.text.length + 1);
    expect(spoken.toPlain[11]).toBe(11); // the added '.' maps to the newline
    expect(spoken.toPlain[13]).toBe(12); // '2'
    expect(prepareSpokenText('Done.\nNext').text).toBe('Done.\nNext');
  });

  it('makes times rise strictly and keeps them inside the audio', () => {
    const marks = alignSpeechMarks({
      plain: 'a b c d',
      spoken: prepareSpokenText('a b c d'),
      events: [word(1, 1, 100), word(3, 1, 100), word(5, 1, 100), word(7, 1, 995)],
      pcmDurationMs: 1000,
      delayMs: 0,
      audioDurationMs: 1000,
      locale: 'en',
    });
    expect(marks.map((m) => m.time)).toEqual([100, 101, 102, 995]);
    expect(speechMarkProblems('a b c d', marks, 1000, 'en')).toEqual([]);
  });

  it('reports broken marks', () => {
    expect(speechMarkProblems('one two', [{ offset: 1, time: 5 }], 100, 'en')[0]).toMatch(/not the start of a word/);
    expect(speechMarkProblems('one two', [{ offset: 0, time: 100 }], 100, 'en')[0]).toMatch(/outside/);
    expect(
      speechMarkProblems('one two', [
        { offset: 0, time: 10 },
        { offset: 4, time: 10 },
      ], 100, 'en')[0],
    ).toMatch(/does not rise/);
  });
});
