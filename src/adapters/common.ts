/** Port adapters that work anywhere: the system clock, a manual clock for tests, memory analytics, a silent audio. */
import type { AnalyticsPort, AudioPort, ClockPort, TrackedEvent } from '../engine/ports';

export const systemClock: ClockPort = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A clock that only moves when told to: `advance(ms)` fires every timer that falls due, in order. */
export function createManualClock(start = 0): ClockPort & { advance(ms: number): void; pending(): number } {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        let dueId: number | null = null;
        let dueAt = Infinity;
        for (const [id, t] of timers) if (t.at <= target && (t.at < dueAt || (t.at === dueAt && id < (dueId ?? Infinity)))) {
          dueId = id;
          dueAt = t.at;
        }
        if (dueId === null) break;
        const t = timers.get(dueId)!;
        timers.delete(dueId);
        now = t.at;
        t.fn();
      }
      now = target;
    },
    pending: () => timers.size,
  };
}

export function createMemoryAnalytics(): AnalyticsPort & { events: { event: TrackedEvent; properties?: Record<string, unknown> }[] } {
  const events: { event: TrackedEvent; properties?: Record<string, unknown> }[] = [];
  return { events, track: (event, properties) => void events.push({ event, properties }) };
}

/**
 * Audio with no sound, driven by a clock: it 'plays' a track of a known length, so headless front ends and
 * tests get the same play, pause, seek and ended behaviour as a real element.
 */
export function createSilentAudio(clock: ClockPort, durationOf: (url: string) => number = () => 30): AudioPort {
  let url: string | null = null;
  let duration = 0;
  let offset = 0;
  let startedAt: number | null = null;
  let rate = 1;
  let endTimer: unknown = null;
  const ended = new Set<() => void>();
  const position = () => (startedAt === null ? offset : Math.min(duration, offset + ((clock.now() - startedAt) / 1000) * rate));
  const schedule = () => {
    if (endTimer !== null) clock.clearTimeout(endTimer);
    endTimer = null;
    if (startedAt === null) return;
    const remaining = ((duration - position()) / rate) * 1000;
    endTimer = clock.setTimeout(() => {
      offset = duration;
      startedAt = null;
      endTimer = null;
      for (const l of [...ended]) l();
    }, remaining);
  };
  return {
    load(next) {
      url = next;
      duration = next ? durationOf(next) : 0;
      offset = 0;
      startedAt = null;
      schedule();
    },
    async play() {
      if (!url) throw new Error('No audio loaded');
      if (position() >= duration) offset = 0;
      startedAt = clock.now();
      schedule();
    },
    pause() {
      offset = position();
      startedAt = null;
      schedule();
    },
    seek(seconds) {
      offset = Math.max(0, Math.min(duration, seconds));
      if (startedAt !== null) startedAt = clock.now();
      schedule();
    },
    setRate(next) {
      offset = position();
      if (startedAt !== null) startedAt = clock.now();
      rate = next;
      schedule();
    },
    currentTime: position,
    duration: () => duration,
    onEnded(listener) {
      ended.add(listener);
      return () => ended.delete(listener);
    },
  };
}
