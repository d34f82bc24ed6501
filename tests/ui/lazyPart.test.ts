import { describe, expect, it } from 'vitest';
import { lazyPart } from '../../src/ui/components/lazyPart';

const Part = () => null;

describe('lazyPart', () => {
  it('fetches a part once, and gives the same promise to every preload', async () => {
    let loads = 0;
    const part = lazyPart(async () => {
      loads++;
      return Part;
    });
    const first = part.preload();
    expect(part.preload()).toBe(first);
    await first;
    expect(loads).toBe(1);
  });

  it('forgets a failed fetch, so the next preload tries again', async () => {
    let loads = 0;
    const part = lazyPart(async () => {
      loads++;
      if (loads === 1) throw new Error('offline');
      return Part;
    });
    await expect(part.preload()).rejects.toThrow('offline');
    await expect(part.preload()).resolves.toEqual({ default: Part });
    expect(loads).toBe(2);
  });
});
