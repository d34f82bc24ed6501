/**
 * The native narration helper (server/narration/native.ts, native/lectern-speech.c): built wherever the system has
 * eSpeak NG's and LAME's headers, and then saying what espeak's JavaScript build says, event for event.
 * speechMarks.test.ts runs its every-language checks through both builds.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ESPEAK_SAMPLE_RATE, synthesize } from '../../server/narration/espeak';
import { readMp3Info } from '../../server/narration/mp3';
import { nativeBuild, nativeSpeech } from '../../server/narration/native';
import { narrate } from '../../server/narration/pipeline';
import { passagePlainText } from '../../src/domain/sanitize';

const canBuild = fs.existsSync('/usr/include/espeak-ng/speak_lib.h') && fs.existsSync('/usr/include/lame/lame.h');
const SENTENCE = 'On top of Thimble Hill lived a red fox named Rusk, the proudest creature in the valley.';

describe('the native narration helper', () => {
  it('is built wherever eSpeak NG and LAME are installed (npm install, npm start and npm test build it)', () => {
    if (!canBuild) return;
    const build = nativeBuild();
    expect(build).not.toBeNull();
    expect(build!.espeak).toMatch(/^\d+\.\d+/);
    expect(build!.lame).toMatch(/^\d+\.\d+/);
  });

  describe.runIf(nativeBuild() !== null)('where it is built', () => {
    it("gives English the same words, positions and times as espeak's JavaScript build", async () => {
      const portable = await synthesize(SENTENCE, 'en-us');
      const native = await nativeSpeech()!.synthesize(SENTENCE, 'en-us', 150);
      expect(native.events.map((e) => [e.type, e.position, e.length])).toEqual(portable.events.map((e) => [e.type, e.position, e.length]));
      for (let i = 0; i < native.events.length; i++) expect(Math.abs(native.events[i].time - portable.events[i].time)).toBeLessThanOrEqual(20);
      // The same speech, within a few per cent of its length.
      expect(Math.abs(native.samples.length - portable.samples.length) / portable.samples.length).toBeLessThan(0.05);
      expect(native.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    });

    it('encodes the MP3 as the portable encoder does: 16 kHz mono CBR at 32 kbps, the same number of frames', async () => {
      const { samples } = await synthesize(SENTENCE, 'en-us');
      const mp3 = await nativeSpeech()!.encode(samples, ESPEAK_SAMPLE_RATE, 16000, 32);
      const info = readMp3Info(mp3);
      expect(info).toMatchObject({ sampleRate: 16000 });
      expect(info!.bitrateKbps).toBeCloseTo(32, 0);
      const portable = await narrate(passagePlainText(`<p>${SENTENCE}</p>`), 'en', { voice: 'espeak-en-us', engine: 'portable' });
      // The same speech by the portable pipeline (said again, so a little different: see below): the same length.
      expect(Math.abs(readMp3Info(portable.mp3)!.durationMs - info!.durationMs) / info!.durationMs).toBeLessThan(0.05);
    });

    it('answers an unknown voice with an error, and the next request as usual', async () => {
      const helper = nativeSpeech()!;
      await expect(helper.synthesize('Hello.', 'xx-nothing', 150)).rejects.toThrow("espeak has no voice 'xx-nothing'");
      const after = await helper.synthesize('Hello there.', 'en-us', 150);
      expect(after.events.filter((e) => e.type === 'word' && e.length > 0)).toHaveLength(2);
    });

    it('answers requests in the order they were made, however they overlap', async () => {
      const helper = nativeSpeech()!;
      const texts = ['One.', 'One two three four five six.', 'One two.'];
      const results = await Promise.all(texts.map((t) => helper.synthesize(t, 'en-us', 150)));
      // (espeak also reports zero-length events, which the alignment drops: only spoken words are counted.)
      expect(results.map((r) => r.events.filter((e) => e.type === 'word' && e.length > 0).length)).toEqual([1, 6, 2]);
    });

    it('narrates a passage natively by default, and as before with engine: portable', async () => {
      const plain = passagePlainText(`<p>${SENTENCE}</p>`);
      const [byDefault, native, portable] = await Promise.all([
        narrate(plain, 'es'),
        narrate(plain, 'es', { engine: 'native' }),
        narrate(plain, 'es', { engine: 'portable' }),
      ]);
      // espeak varies its voice a little from one utterance to the next (in either build), so the same text is
      // compared by its words and its length, not byte for byte.
      expect(byDefault.voice).toBe('espeak-es');
      expect(byDefault.speechMarks.map((m) => m.offset)).toEqual(native.speechMarks.map((m) => m.offset));
      expect(Math.abs(byDefault.durationMs - native.durationMs) / native.durationMs).toBeLessThan(0.05);
      expect(portable.speechMarks.map((m) => m.offset)).toEqual(native.speechMarks.map((m) => m.offset));
    });
  });
});
