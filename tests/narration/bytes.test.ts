import { describe, expect, it } from 'vitest';
import { writeGrowing } from '../../server/narration/bytes';

describe('writeGrowing', () => {
  it('writes into the same buffer while the chunk fits', () => {
    const buffer = new Int16Array(4);
    const written = writeGrowing(buffer, 1, [7, 8], (size) => new Int16Array(size));
    expect(written).toBe(buffer);
    expect([...written]).toEqual([0, 7, 8, 0]);
  });

  it('moves what was written to a buffer at least twice as large when the chunk does not fit', () => {
    const buffer = Uint8Array.of(1, 2, 3, 99);
    const written = writeGrowing(buffer, 3, [4, 5], (size) => new Uint8Array(size));
    expect(written).not.toBe(buffer);
    expect(written.length).toBe(8);
    expect([...written.subarray(0, 5)]).toEqual([1, 2, 3, 4, 5]);
  });

  it('grows to the exact size needed when that is more than twice as large', () => {
    const written = writeGrowing(new Uint8Array(2), 0, new Uint8Array(9).fill(6), (size) => new Uint8Array(size));
    expect(written.length).toBe(9);
    expect([...written]).toEqual(new Array(9).fill(6));
  });
});
