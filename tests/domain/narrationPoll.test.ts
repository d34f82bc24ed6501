import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/adapters/common';
import { isGenerating, NARRATION_MAX_POLLS, NARRATION_POLL_MS, waitForNarration } from '../../src/domain/narrationPoll';

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
