/**
 * Runs one machine for the engine: creates its actor, runs the timers its states declare through the clock
 * port (restarting them when a state is re-entered), and tells the engine when its snapshot changes.
 */
import { createActor, type AnyActorRef, type AnyStateMachine, type EventFrom, type InputFrom, type SnapshotFrom } from 'xstate';
import { activeTimers, type TimerSpec } from '../machines/shared/timers';
import type { ClockPort, TimerHandle } from './ports';

export interface MachineHost<M extends AnyStateMachine> {
  readonly actor: AnyActorRef;
  send(event: EventFrom<M>): void;
  getSnapshot(): SnapshotFrom<M>;
  /** The timers currently running, by key. For tests and the debug page. */
  runningTimers(): string[];
  stop(): void;
}

export interface HostOptions<M extends AnyStateMachine> {
  machine: M;
  input?: InputFrom<M>;
  clock: ClockPort;
  /** Extra timers computed from the snapshot (e.g. one per toast), added to those in state meta. */
  timersOf?: (snapshot: SnapshotFrom<M>) => TimerSpec[];
  onChange: () => void;
  onError?: (error: unknown) => void;
}

export function hostMachine<M extends AnyStateMachine>(options: HostOptions<M>): MachineHost<M> {
  const { clock } = options;
  const running = new Map<string, { handle: TimerHandle; spec: TimerSpec }>();
  const restart = new Set<string>();

  const actor = createActor(options.machine, {
    input: options.input,
    inspect: (ev: { type: string }) => {
      if (ev.type !== '@xstate.microstep') return;
      const transitions = (ev as unknown as { _transitions: { source: { id: string }; target?: { id: string }[]; reenter?: boolean }[] })._transitions;
      for (const t of transitions) {
        for (const target of t.target ?? []) {
          if (t.reenter || target.id !== t.source.id) restart.add(target.id);
        }
      }
    },
  } as never);

  const desired = (): Map<string, TimerSpec> => {
    const snapshot = actor.getSnapshot() as unknown as { status: string; getMeta(): Record<string, unknown> };
    const out = snapshot.status === 'active' ? activeTimers(snapshot) : new Map<string, TimerSpec>();
    if (snapshot.status === 'active') for (const t of options.timersOf?.(snapshot as unknown as SnapshotFrom<M>) ?? []) out.set(`custom#${t.id}`, t);
    return out;
  };

  const reconcile = () => {
    const want = desired();
    for (const [key, entry] of running) {
      const stateId = key.split('#')[0];
      if (!want.has(key) || restart.has(stateId)) {
        clock.clearTimeout(entry.handle);
        running.delete(key);
      }
    }
    for (const [key, spec] of want) {
      if (running.has(key)) continue;
      const handle = clock.setTimeout(() => {
        running.delete(key);
        actor.send(spec.event as EventFrom<M>);
      }, spec.delay);
      running.set(key, { handle, spec });
    }
    restart.clear();
  };

  const subscription = actor.subscribe({
    next: () => {
      reconcile();
      options.onChange();
    },
    error: (error) => options.onError?.(error),
  });
  actor.start();
  reconcile();

  return {
    actor,
    send: (event) => actor.send(event),
    getSnapshot: () => actor.getSnapshot() as SnapshotFrom<M>,
    runningTimers: () => [...running.keys()],
    stop() {
      subscription.unsubscribe();
      for (const { handle } of running.values()) clock.clearTimeout(handle);
      running.clear();
      actor.stop();
    },
  };
}
