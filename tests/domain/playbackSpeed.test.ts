import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAYBACK_SPEEDS } from '../../src/domain/constants';
import {
  applyPlaybackSpeedRequest,
  formatPlaybackSpeedParam,
  parsePlaybackSpeedParam,
  speedFor,
} from '../../src/domain/playbackSpeed';

describe('the playbackSpeed query parameter (SPEC §2: number:number pairs or default)', () => {
  it('reads editionId:speed pairs', () => {
    expect(parsePlaybackSpeedParam('12:1.5')).toEqual({ kind: 'set', speeds: { '12': 1.5 } });
    expect(parsePlaybackSpeedParam('12:1.5,7:0.25, 9:2')).toEqual({ kind: 'set', speeds: { '12': 1.5, '7': 0.25, '9': 2 } });
    expect(parsePlaybackSpeedParam('3:1,3:0.75')).toEqual({ kind: 'set', speeds: { '3': 0.75 } });
  });

  it("reads 'default' as a reset, in any case", () => {
    expect(parsePlaybackSpeedParam('default')).toEqual({ kind: 'reset' });
    expect(parsePlaybackSpeedParam(' DEFAULT ')).toEqual({ kind: 'reset' });
  });

  it('ignores bad pairs and keeps the good ones', () => {
    expect(parsePlaybackSpeedParam('default,1:1')).toEqual({ kind: 'set', speeds: { '1': 1 } });
    expect(parsePlaybackSpeedParam('12:3,13:1.25')).toEqual({ kind: 'set', speeds: { '13': 1.25 } });
    expect(parsePlaybackSpeedParam('x:1,0:1,-4:1,5:abc,6:,:1,7:1.3,8:1:2,9:0.5')).toEqual({ kind: 'set', speeds: { '9': 0.5 } });
  });

  it('gives nothing for no usable pair', () => {
    for (const bad of [null, undefined, '', '   ', 'fast', '1.5', '12:', '12:9', '__proto__:1', '1:1'.repeat(1000)]) {
      expect(parsePlaybackSpeedParam(bad), String(bad)).toBeNull();
    }
  });

  it('never throws and only yields the spec speeds on any input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const r = parsePlaybackSpeedParam(s);
        if (r?.kind === 'set') for (const v of Object.values(r.speeds)) expect(PLAYBACK_SPEEDS).toContain(v);
      }),
    );
  });

  it('writes pairs sorted by edition id, or default, and reads back what it wrote', () => {
    expect(formatPlaybackSpeedParam({ '12': 1.5, '3': 2 })).toBe('3:2,12:1.5');
    expect(formatPlaybackSpeedParam({})).toBe('default');
    fc.assert(
      fc.property(fc.dictionary(fc.integer({ min: 1, max: 99999 }).map(String), fc.constantFrom(...PLAYBACK_SPEEDS), { minKeys: 1 }), (map) => {
        expect(parsePlaybackSpeedParam(formatPlaybackSpeedParam(map))).toEqual({ kind: 'set', speeds: map });
      }),
    );
  });

  it('applies a request to the saved speeds, and reads an edition speed with default 1', () => {
    expect(applyPlaybackSpeedRequest({ '1': 2 }, { kind: 'set', speeds: { '2': 0.5 } })).toEqual({ '1': 2, '2': 0.5 });
    expect(applyPlaybackSpeedRequest({ '1': 2 }, { kind: 'reset' })).toEqual({});
    expect(speedFor({ '1': 2 }, 1)).toBe(2);
    expect(speedFor({ '1': 2 }, 5)).toBe(1);
    expect(speedFor(null, 5)).toBe(1);
    expect(speedFor({ '1': 3 as never }, 1)).toBe(1);
  });
});
