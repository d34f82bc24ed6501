/** The chunks, one after the other, in one new Uint8Array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Write `chunk` into `buffer` at `length`, for a buffer that is reused and grows. When the chunk does not fit, the
 * first `length` items move to a new array from `grow` (at least twice as large) and the chunk is written there.
 * Returns the array that now holds them.
 */
export function writeGrowing<T extends Uint8Array | Int16Array>(buffer: T, length: number, chunk: ArrayLike<number>, grow: (size: number) => T): T {
  let target = buffer;
  if (length + chunk.length > buffer.length) {
    target = grow(Math.max(length + chunk.length, buffer.length * 2));
    target.set(buffer.subarray(0, length));
  }
  target.set(chunk, length);
  return target;
}
