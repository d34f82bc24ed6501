/**
 * Runs one machine for the engine: creates its actor on the engine's clock (XState schedules the machine's
 * delayed events on it) and tells the engine when its snapshot changes.
 */
import { createActor, type AnyActorRef, type AnyStateMachine, type EventFrom, type InputFrom, type SnapshotFrom } from 'xstate';
import type { ClockPort } from './ports';

export interface MachineHost<M extends AnyStateMachine> {
  readonly actor: AnyActorRef;
  send(event: EventFrom<M>): void;
  getSnapshot(): SnapshotFrom<M>;
  stop(): void;
}

export interface HostOptions<M extends AnyStateMachine> {
  machine: M;
  input?: InputFrom<M>;
  clock: ClockPort;
  onChange: () => void;
  onError?: (error: unknown) => void;
}

export function hostMachine<M extends AnyStateMachine>(options: HostOptions<M>): MachineHost<M> {
  const actor = createActor(options.machine, { input: options.input, clock: options.clock } as never);
  const subscription = actor.subscribe({ next: () => options.onChange(), error: (error) => options.onError?.(error) });
  actor.start();
  return {
    actor,
    send: (event) => actor.send(event),
    getSnapshot: () => actor.getSnapshot() as SnapshotFrom<M>,
    stop() {
      subscription.unsubscribe();
      actor.stop();
    },
  };
}
