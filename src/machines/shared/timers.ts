/**
 * Timers are XState's own delayed events. A state that waits declares its timer once with `timer()`: the spec
 * goes in `meta.timers` (for the generated docs), a named `raise(…, { delay, id })` starts it on entry and a
 * named `cancel(id)` stops it on exit, so re-entering the state restarts it. XState schedules the delayed event
 * on the actor's clock: the engine passes its clock port to `createActor`, and tests pass a `SimulatedClock`.
 *
 * The actions are named (never inline), so the pure machine stays walkable by `createTestModel`: the walk treats
 * each timeout as an ordinary event, and the model tests deliver it by advancing a simulated clock instead
 * (tests/machines/harness.ts `clockDriven`), which proves the delay is really scheduled.
 */
import type { EventObject } from 'xstate';

export interface TimerSpec<TEvent extends EventObject = EventObject> {
  /** A name unique within the machine, e.g. 'idle'; also the id of the scheduled event. */
  id: string;
  delay: number;
  /** The event raised when the timer fires. */
  event: TEvent;
}

export interface StateMetaWithTimers {
  timers?: TimerSpec[];
  /** A sentence for the generated docs. */
  description?: string;
}

export function timer<TEvent extends EventObject>(id: string, delay: number, event: TEvent): TimerSpec<TEvent> {
  return { id, delay, event };
}
