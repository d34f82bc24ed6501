/**
 * The Flite English voice: its text, the mapping of its phones to the passage's words (on hand-made
 * phones), real synthesis of a short passage full of numbers, abbreviations and punctuation against the speech-mark
 * contract, the espeak fallback, the voice names, and NARRATION_VOICE_EN.
 */
import { describe, expect, it } from 'vitest';
import { fliteChunks, fliteText, parsePhoneTimes, FLITE_CHUNK_CHARS, type FlitePhone } from '../../server/narration/flite';
import { fliteSpeechMarks, unitStartTimes, wordUnits } from '../../server/narration/fliteMarks';
import { narrate, narrationKey } from '../../server/narration/pipeline';
import { readMp3Info } from '../../server/narration/mp3';
import { speechMarkProblems, wordsOf } from '../../server/narration/speechMarks';
import { englishVoiceFromEnv, narrationVoice, narrationVoiceById } from '../../server/narration/voices';
import { narrationSettings } from '../../server/narration/queue';
import { loadConfig } from '../../server/config';
import { passagePlainText } from '../../src/domain/sanitize';

/** Phones with times from `name:durationMs` pairs, one after another. */
function phones(spec: string): FlitePhone[] {
  let t = 0;
  return spec.split(' ').map((item) => {
    const [name, ms] = item.split(':');
    const p = { name, start: t, end: t + Number(ms) };
    t = p.end;
    return p;
  });
}

describe('Flite text and output', () => {
  it('reads ASCII: accents, typographic quotes and dashes, ellipses, other scripts', () => {
    expect(fliteText('café “naïve” — it’s…')).toBe('cafe "naive", it\'s...');
    expect(fliteText('well‐known 東京')).toBe('well-known   ');
  });

  it('says a passage by paragraphs, and a long paragraph in pieces of whole sentences', () => {
    const sentence = 'The owl flew over the dark wood and the river, looking for mice.';
    const long = Array.from({ length: 12 }, () => sentence).join(' ');
    const chunks = fliteChunks(`The Title.\n${long}\n...`);
    expect(chunks[0]).toBe('The Title.');
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks.slice(1)) {
      expect(c.length).toBeLessThanOrEqual(FLITE_CHUNK_CHARS);
      expect(c.endsWith('mice.')).toBe(true);
    }
    expect(chunks.slice(1).join(' ')).toBe(long);
  });

  it('parses -psdur: a phone starts where the one before ends', () => {
    expect(parsePhoneTimes('pau:0.164 hh:0.233 ax:0.282 \n')).toEqual([
      { name: 'pau', start: 0, end: 164 },
      { name: 'hh', start: 164, end: 233 },
      { name: 'ax', start: 233, end: 282 },
    ]);
  });
});

describe('Flite phones to word marks', () => {
  it('gives each word of the text a unit: its chunk, or its part of a chunk of several words', () => {
    const { words, units } = wordUnits('Dr. Smith paid $3.50 for well-known (50%) owls.', 'en');
    expect(words).toHaveLength(9);
    expect(units).toEqual(['Dr.', 'Smith', 'paid', '$3.50', 'for', 'well-', 'known', '(50%)', 'owls.']);
  });

  it('aligns each unit with its first phone, across pauses and a word said differently in context', () => {
    // 'Dr. Smith': on its own 'Dr.' is 'drive'; in the sentence it is 'doctor'.
    const unitPhones = [['d', 'r', 'ay', 'v'], ['s', 'm', 'ih', 'th'], ['p', 'ey', 'd']];
    const spoken = phones('pau:100 d:20 aa:30 k:20 t:20 er:40 s:30 m:30 ih:30 th:30 pau:200 p:20 ey:40 d:20 pau:100');
    expect(unitStartTimes(unitPhones, spoken)).toEqual([100, 230, 550]);
  });

  it('keeps the contract: one mark per word, rising, shifted by the delay, inside the audio; a word not said is interpolated', () => {
    const plain = 'Hello — big owl 東京 flies.';
    const words = wordsOf(plain, 'en');
    expect(words).toHaveLength(5);
    const unitPhones = [['hh', 'ax', 'l', 'ow'], ['b', 'ih', 'g'], ['aw', 'l'], [], ['f', 'l', 'ay', 'z']];
    const spoken = phones('pau:100 hh:50 ax:40 l:60 ow:100 pau:200 b:40 ih:60 g:40 aw:120 l:80 f:60 l:40 ay:100 z:80 pau:200');
    const marks = fliteSpeechMarks({ plain, locale: 'en', unitPhones, phones: spoken, pcmDurationMs: 1370, delayMs: 69, audioDurationMs: 1500 });
    expect(marks.map((m) => m.offset)).toEqual(words.map((w) => w.start));
    // '東京' is not said: it shares the span from 'owl' to 'flies' with 'owl', by length (690 + 200 × 4/7, + 69).
    expect(marks.map((m) => m.time)).toEqual([169, 619, 759, 873, 959]);
    expect(speechMarkProblems(plain, marks, 1500, 'en')).toEqual([]);
  });
});

describe('narration with Flite slt', () => {
  it('narrates English with marks that keep the contract, through numbers, abbreviations and punctuation', async () => {
    const plain = passagePlainText('<p>At 7:30, Dr. O’Neil’s well-known café paid $3.50 — (50%) of it — on Jan. 5th.</p><p>The End</p>');
    const result = await narrate(plain, 'en');
    expect(result.voice).toBe('flite-slt');
    const words = wordsOf(plain, 'en');
    expect(result.speechMarks.map((m) => m.offset)).toEqual(words.map((w) => w.start));
    expect(speechMarkProblems(plain, result.speechMarks, result.durationMs, 'en')).toEqual([]);
    // '$3.50' is 'three dollars fifty cents': the word after it ('of') starts well after it.
    const at = (word: string) => result.speechMarks[words.findIndex((w) => plain.slice(w.start, w.end) === word)].time;
    expect(at('of') - at('3.50')).toBeGreaterThan(800);
    expect(result.speechMarks.at(-1)!.time).toBeGreaterThan(result.durationMs / 2);
    const info = readMp3Info(result.mp3);
    expect(info!.sampleRate).toBe(16000);
    expect(Math.floor(info!.durationMs)).toBe(result.durationMs);
  });

  it('falls back to espeak for English on request, and keys the two voices apart', async () => {
    const plain = 'The owl sat on a branch.';
    const result = await narrate(plain, 'en', { voice: 'espeak-en-us' });
    expect(result.voice).toBe('espeak-en-us');
    expect(speechMarkProblems(plain, result.speechMarks, result.durationMs, 'en')).toEqual([]);
    expect(result.speechMarks).toHaveLength(6);
    const flite = narrationVoice('en', 'flite-slt')!;
    const espeak = narrationVoice('en', 'espeak')!;
    expect(narrationKey(plain, flite.keyVoice)).toMatch(/^flite-slt-[0-9a-f]{32}$/);
    expect(narrationKey(plain, espeak.keyVoice)).toMatch(/^en-us-[0-9a-f]{32}$/);
  });
});

describe('voices and NARRATION_VOICE_EN', () => {
  it('names the voice of each language; only English has a choice', () => {
    expect(narrationVoice('en')).toMatchObject({ id: 'flite-slt', engine: 'flite', engineVoice: 'slt' });
    expect(narrationVoice('en', 'espeak')).toMatchObject({ id: 'espeak-en-us', engine: 'espeak', engineVoice: 'en-us', keyVoice: 'en-us' });
    expect(narrationVoice('es', 'flite-slt')).toMatchObject({ id: 'espeak-es', keyVoice: 'es' });
    expect(narrationVoice('fil')).toBeNull();
    expect(narrationVoiceById('espeak-pt-br')).toMatchObject({ engine: 'espeak', engineVoice: 'pt-br' });
    expect(narrationVoiceById('flite-kal')).toBeNull();
  });

  it('defaults to flite-slt, accepts espeak, and refuses anything else by name', () => {
    expect(englishVoiceFromEnv({})).toBe('flite-slt');
    expect(englishVoiceFromEnv({ NARRATION_VOICE_EN: '' })).toBe('flite-slt');
    expect(englishVoiceFromEnv({ NARRATION_VOICE_EN: 'espeak' })).toBe('espeak');
    expect(() => englishVoiceFromEnv({ NARRATION_VOICE_EN: 'festival' })).toThrow(/Invalid environment:[\s\S]*NARRATION_VOICE_EN/);
    expect(() => loadConfig({ NARRATION_VOICE_EN: 'slt' })).toThrow(/NARRATION_VOICE_EN/);
    expect(narrationSettings({ NARRATION_VOICE_EN: 'espeak' }, true).englishVoice).toBe('espeak');
    expect(narrationSettings({ NARRATION_VOICE_EN: 'espeak' }, true, { englishVoice: 'flite-slt' }).englishVoice).toBe('flite-slt');
  });
});
