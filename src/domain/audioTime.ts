/** Audio times as the product shows them (SPEC §9: clock format mm:ss; total audio length 'Xh Ym' or 'Ym'). */

const whole = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? seconds : 0);

/**
 * A total audio length: 'Xh Ym' from one hour, else 'Ym'. Minutes are rounded to the nearest; a length of a
 * few seconds shows '1m' rather than '0m', and no audio at all shows '0m'.
 */
export function formatAudioLength(totalSeconds: number): string {
  const seconds = whole(totalSeconds);
  const minutes = seconds === 0 ? 0 : Math.max(1, Math.round(seconds / 60));
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}h ${minutes % 60}m` : `${minutes}m`;
}

/** A playback clock, 'mm:ss' (minutes keep counting past 59: '75:03'). Fractions of a second are dropped. */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.floor(whole(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}
