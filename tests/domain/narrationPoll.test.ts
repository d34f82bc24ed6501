import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/adapters/common';
import { hasPartial, isGenerating, NARRATION_MAX_POLLS, NARRATION_POLL_MS, waitForNarration } from '../../src/domain/narrationPoll';
import { narrationActor } from '../../src/engine/audioActors';
import { createActor, toPromise } from 'xstate';

type Answer = { status: 'generating' } | { status: 'ready'; url: string };
const generating: Answer = { status: 'generating' };
const ready: Answer = { status: 'ready', url: '/audio/1.mp3' };

/** An ask that answers from a script, one answer per ask, and counts its asks. */
function scripted(answers: Answer[]) {
  let asks = 0;
  return {
    ask: async () => answers[Math.min(asks++, answers.length - 1)],
    asks: () => asks,
  };
}

/** Let the awaited asks settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('waitForNarration', () => {
  it('answers at once when the first answer is not generating', async () => {
    const clock = createManualClock();
    const source = scripted([ready]);
    await expect(waitForNarration(source.ask, { clock })).resolves.toEqual(ready);
    expect(source.asks()).toBe(1);
    expect(clock.pending()).toBe(0);
  });

  it('asks again after each interval on the given clock while the answer is generating', async () => {
    const clock = createManualClock();
    const source = scripted([generating, generating, ready]);
    const result = waitForNarration(source.ask, { clock });
    await settle();
    expect(source.asks()).toBe(1);
    clock.advance(NARRATION_POLL_MS - 1);
    await settle();
    expect(source.asks()).toBe(1);
    clock.advance(1);
    await settle();
    expect(source.asks()).toBe(2);
    clock.advance(NARRATION_POLL_MS);
    await expect(result).resolves.toEqual(ready);
    expect(source.asks()).toBe(3);
  });

  it('gives the last generating answer back once its asks are spent', async () => {
    const clock = createManualClock();
    const source = scripted([generating]);
    const result = waitForNarration(source.ask, { clock, maxAsks: 3, intervalMs: 10 });
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.advance(10);
    }
    await expect(result).resolves.toEqual(generating);
    expect(source.asks()).toBe(3);
  });

  it('asks NARRATION_MAX_POLLS times by default', async () => {
    const clock = createManualClock();
    const source = scripted([generating]);
    const result = waitForNarration(source.ask, { clock });
    for (let i = 0; i < NARRATION_MAX_POLLS + 2; i++) {
      await settle();
      clock.advance(NARRATION_POLL_MS);
    }
    await expect(result).resolves.toEqual(generating);
    expect(source.asks()).toBe(NARRATION_MAX_POLLS);
  });

  it('stops waiting when aborted: the timer is cleared and it rejects with the reason', async () => {
    const clock = createManualClock();
    const source = scripted([generating]);
    const controller = new AbortController();
    const result = waitForNarration(source.ask, { clock, signal: controller.signal });
    await settle();
    expect(clock.pending()).toBe(1);
    controller.abort(new Error('stopped'));
    await expect(result).rejects.toThrow('stopped');
    expect(clock.pending()).toBe(0);
    clock.advance(NARRATION_POLL_MS * 3);
    expect(source.asks()).toBe(1);
  });

  it('rejects at once when an ask fails', async () => {
    const clock = createManualClock();
    await expect(waitForNarration(() => Promise.reject(new Error('network')), { clock })).rejects.toThrow('network');
  });

  it('knows a generating answer by its status', () => {
    expect(isGenerating(generating)).toBe(true);
    expect(isGenerating(ready)).toBe(false);
    expect(isGenerating({ passageId: 1, speechMarks: [] })).toBe(false);
    expect(isGenerating(null)).toBe(false);
  });
});

describe('the head of a narration being made', () => {
  const head = { url: '/audio/head-1.mp3', speechMarks: [{ offset: 0, time: 70 }], duration: 3100, voice: 'flite-slt', seam: 2900 };
  const withHead = { passageId: 1, status: 'generating' as const, partial: head };
  const whole = { passageId: 1, status: 'ready' as const, audio: { url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 70 }], duration: 9000, voice: 'flite-slt' } };

  it('ends the wait when asked to accept it, and not otherwise', async () => {
    expect([hasPartial(withHead), hasPartial({ status: 'generating' }), hasPartial(whole)]).toEqual([true, false, false]);
    const clock = createManualClock();
    const answers = [withHead, whole];
    let asks = 0;
    const ask = async () => answers[Math.min(asks++, 1)];
    await expect(waitForNarration(ask, { clock, accept: hasPartial })).resolves.toEqual(withHead);
    const result = waitForNarration(ask, { clock });
    await settle();
    clock.advance(NARRATION_POLL_MS);
    await expect(result).resolves.toEqual(whole);
  });

  it('is what the narration actor gives for a first ask with `partial`; without it the actor waits for the whole', async () => {
    const clock = createManualClock();
    let asks = 0;
    const actor = narrationActor(async () => (asks++ === 0 ? withHead : whole), clock);
    const first = await toPromise(createActor(actor, { input: { passageId: 1, editionId: 2, position: 1, partial: true } }).start());
    expect(first).toEqual({ url: head.url, speechMarks: head.speechMarks, duration: 3.1, seam: 2.9 });
    asks = 0;
    const run = toPromise(createActor(actor, { input: { passageId: 1, editionId: 2, position: 1 } }).start());
    await settle();
    clock.advance(NARRATION_POLL_MS);
    await expect(run).resolves.toEqual({ url: '/audio/1.mp3', speechMarks: whole.audio.speechMarks, duration: 9 });
  });
});
