/**
 * Timers are declared, not run, by the machines. A state that waits lists its timers in `meta.timers`; the
 * engine starts them through its clock port when the state is entered and cancels them when it is left, then
 * sends the named event. The machines stay pure (no `after`, no `invoke`), so the model tests can walk every
 * transition, and the delays are still written next to the states that use them.
 */
export interface TimerSpec {
  /** A name that is unique within the machine, e.g. 'idle'. */
  id: string;
  delay: number;
  /** The event sent when the timer fires. */
  event: { type: string; [key: string]: unknown };
}

export interface StateMetaWithTimers {
  timers?: TimerSpec[];
  /** A sentence for the generated docs. */
  description?: string;
}

export function timer(id: string, delay: number, eventType: string): TimerSpec {
  return { id, delay, event: { type: eventType } };
}

/** The timers a snapshot asks for, keyed by `${stateId}#${timerId}` so re-entry restarts them. */
export function activeTimers(snapshot: { getMeta(): Record<string, unknown> }): Map<string, TimerSpec> {
  const out = new Map<string, TimerSpec>();
  for (const [stateId, meta] of Object.entries(snapshot.getMeta())) {
    const timers = (meta as StateMetaWithTimers | undefined)?.timers;
    for (const t of timers ?? []) out.set(`${stateId}#${t.id}`, t);
  }
  return out;
}
