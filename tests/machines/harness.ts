/**
 * Model-based test harness on xstate 5's graph utilities (`xstate/graph`, the maintained successor of
 * `@xstate/test`). `planTransitionWalk` builds a TestModel of a machine, takes the shortest path to every state
 * it can reach, and extends each with every event that state accepts, so that every transition of the machine
 * is walked once. Each walk replays its events on a system under test and checks it after every step.
 * It also counts the machine's transitions and reports how many the walks covered.
 */
import { createActor, initialTransition, SimulatedClock, transition, type AnyStateMachine, type EventFrom, type SnapshotFrom } from 'xstate';
import { createTestModel, getShortestPaths } from 'xstate/graph';

export interface TransitionRef {
  key: string;
  source: string;
  event: string;
  guard: string | null;
  targets: string[];
}

type AnyTransitionDefinition = {
  source: { id: string };
  eventType: string;
  guard?: unknown;
  target?: readonly { id: string }[];
};
type AnyNode = {
  id: string;
  states: Record<string, AnyNode>;
  transitions: Map<string, AnyTransitionDefinition[]>;
  always?: AnyTransitionDefinition[];
};

function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard && 'type' in guard) return String((guard as { type: unknown }).type);
  if (typeof guard === 'function') return guard.name || 'inline';
  return 'guard';
}

export function transitionKey(t: AnyTransitionDefinition, index: number): string {
  const targets = (t.target ?? []).map((n) => n.id).join(',') || '(self)';
  const guard = guardName(t.guard);
  return `${t.source.id} --${t.eventType}${guard ? ` [${guard}]` : ''}#${index}--> ${targets}`;
}

/** Every transition written in the machine, guarded alternatives counted separately. */
export function allTransitions(machine: AnyStateMachine): TransitionRef[] {
  const out: TransitionRef[] = [];
  const visit = (node: AnyNode) => {
    for (const [, list] of node.transitions) {
      list.forEach((t, i) =>
        out.push({
          key: transitionKey(t, i),
          source: t.source.id,
          event: t.eventType,
          guard: guardName(t.guard),
          targets: (t.target ?? []).map((n) => n.id),
        }),
      );
    }
    (node.always ?? []).forEach((t, i) =>
      out.push({ key: transitionKey(t, i), source: t.source.id, event: '(always)', guard: guardName(t.guard), targets: (t.target ?? []).map((n) => n.id) }),
    );
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root as unknown as AnyNode);
  return out;
}

/** Keys of every transition (event-driven or `always`) a live actor takes while replaying `events`. */
function replayKeys(machine: AnyStateMachine, input: unknown, events: readonly unknown[]): string[] {
  const keys: string[] = [];
  const actor = createActor(machine, {
    input,
    inspect: (ev: { type: string }) => {
      if (ev.type !== '@xstate.microstep') return;
      for (const t of (ev as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
        const node = t.source as unknown as AnyNode;
        const list = t.eventType === '' ? (node.always ?? []) : (node.transitions.get(t.eventType) ?? node.always ?? []);
        keys.push(transitionKey(t, list.indexOf(t)));
      }
    },
  } as never);
  actor.start();
  for (const e of events) actor.send(e as never);
  actor.stop();
  return keys;
}

function takenKeys(machine: AnyStateMachine, snapshot: unknown, event: unknown): string[] {
  const taken = (machine as unknown as { getTransitionData(s: unknown, e: unknown): AnyTransitionDefinition[] }).getTransitionData(snapshot, event);
  return taken.map((t) => {
    const list = (t.source as unknown as AnyNode).transitions.get(t.eventType) ?? [];
    return transitionKey(t, list.indexOf(t));
  });
}

/** The named actions a step executes (xstate's built-ins such as assign are left out). */
function actionNames(actions: readonly { type: string }[]): string[] {
  return actions.map((a) => a.type).filter((t) => !t.startsWith('xstate.'));
}

export interface SystemUnderTest<TEvent> {
  send(event: TEvent): void;
  stop?(): void;
}

export interface WalkCase<TMachine extends AnyStateMachine> {
  description: string;
  events: EventFrom<TMachine>[];
  /** The transitions the last event takes. */
  transitions: string[];
  run(
    check: (expected: SnapshotFrom<TMachine>, step: number, actions: string[]) => void,
    sut: SystemUnderTest<EventFrom<TMachine>>,
  ): Promise<void>;
}

export interface WalkPlan<TMachine extends AnyStateMachine> {
  cases: WalkCase<TMachine>[];
  covered: Set<string>;
  /** Transitions taken before any event (the `always` branches of a start that depends on input). */
  startTransitions: string[];
  total: TransitionRef[];
  uncovered: TransitionRef[];
  summary: string;
}

export interface PlanOptions<TMachine extends AnyStateMachine> {
  /** Sample events to try in each state (with payloads). */
  events: EventFrom<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => EventFrom<TMachine>[]);
  input?: unknown;
  /** What makes two snapshots the same state for the walk. Default: value plus context. */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  /** Guard against runaway context. @default 500 */
  maxStates?: number;
}

/** Some state of the machine invokes an actor. */
function invokes(machine: AnyStateMachine): boolean {
  const visit = (node: { invoke?: unknown[]; states: Record<string, unknown> }): boolean =>
    (node.invoke?.length ?? 0) > 0 || Object.values(node.states).some((child) => visit(child as never));
  return visit(machine.root as never);
}

/**
 * The machine as the walk's traversal sees it: each transition computed in an actor system of its own, as xstate's
 * pure `transition()` computes it. xstate/graph computes every transition of one traversal in a single mock system
 * that never runs a stop, so a child stopped and spawned again with the same systemId (which a live actor frees at
 * once) would collide there with the one it replaces.
 */
function inOwnSystems<TMachine extends AnyStateMachine>(machine: TMachine): TMachine {
  return Object.create(machine, { transition: { value: (snapshot: SnapshotFrom<TMachine>, event: EventFrom<TMachine>) => transition(machine, snapshot as never, event)[0] } });
}

export function planTransitionWalk<TMachine extends AnyStateMachine>(machine: TMachine, options: PlanOptions<TMachine>): WalkPlan<TMachine> {
  const serializeState =
    options.serializeState ?? ((s: SnapshotFrom<TMachine>) => JSON.stringify({ value: (s as any).value, context: (s as any).context }));
  const eventsFor = typeof options.events === 'function' ? options.events : () => options.events as EventFrom<TMachine>[];
  const traversal = {
    events: (s: any) => eventsFor(s),
    serializeState: (s: any) => serializeState(s),
    input: options.input,
    limit: options.maxStates ?? 500,
  } as any;
  // createTestModel refuses a machine that invokes; its paths come from the same traversal (the walks' actors never settle).
  const walked = inOwnSystems(machine);
  const shortest = invokes(machine) ? getShortestPaths(walked, traversal) : createTestModel(walked, traversal).getShortestPaths({ allowDuplicatePaths: true });

  const covered = new Set<string>();
  const cases: WalkCase<TMachine>[] = [];
  const seenEdges = new Set<string>();
  for (const path of shortest) {
    const from = path.state as SnapshotFrom<TMachine>;
    const prefix = path.steps.map((s) => s.event as EventFrom<TMachine>).filter((e) => (e as { type: string }).type !== 'xstate.init');
    for (const event of eventsFor(from)) {
      const keys = takenKeys(machine, from, event);
      if (keys.length === 0) continue;
      const edge = `${serializeState(from)}|${JSON.stringify(event)}`;
      if (seenEdges.has(edge)) continue;
      seenEdges.add(edge);
      const events = [...prefix, event];
      keys.forEach((k) => covered.add(k));
      replayKeys(machine, options.input, events).forEach((k) => covered.add(k));
      cases.push({
        transitions: keys,
        description: `${keys.join(' + ')}  via ${events.map((e) => (e as { type: string }).type).join(' → ') || '(start)'}`,
        events,
        async run(check, sut) {
          let [snapshot, actions] = initialTransition(machine, options.input as any);
          check(snapshot as SnapshotFrom<TMachine>, 0, actionNames(actions));
          let step = 0;
          try {
            for (const e of events) {
              sut.send(e);
              [snapshot, actions] = transition(machine, snapshot as any, e as any);
              check(snapshot as SnapshotFrom<TMachine>, ++step, actionNames(actions));
            }
          } finally {
            sut.stop?.();
          }
        },
      });
    }
  }
  const startTransitions = replayKeys(machine, options.input, []);
  startTransitions.forEach((k) => covered.add(k));
  const total = allTransitions(machine);
  const uncovered = total.filter((t) => !covered.has(t.key));
  const summary = `${machine.id}: ${total.length - uncovered.length}/${total.length} transitions covered (${Math.round(((total.length - uncovered.length) / Math.max(1, total.length)) * 100)}%)`;
  return { cases, covered, startTransitions, total, uncovered, summary };
}

/** The timers a machine declares in its states' `meta.timers`, by the event each raises. */
export function declaredTimers(machine: AnyStateMachine): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (node: { meta?: { timers?: { delay: number; event: { type: string } }[] }; states: Record<string, unknown> }) => {
    for (const t of node.meta?.timers ?? []) out.set(t.event.type, t.delay);
    for (const child of Object.values(node.states)) visit(child as never);
  };
  visit(machine.root as never);
  return out;
}

/**
 * A live actor of `machine` under a SimulatedClock, as the walks' system under test: a timeout event is not sent
 * but delivered by advancing the clock by its declared delay, so a walk fails unless the state really schedules
 * it (on entry) and keeps it (until exit).
 */
export function clockDriven<TMachine extends AnyStateMachine>(machine: TMachine, options: { input?: unknown } = {}) {
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: options.input, clock } as never).start();
  return { actor, clock, send: timedSend(machine, actor, clock), stop: () => actor.stop() };
}

/** Send events to an actor on a SimulatedClock, delivering the machine's timeout events by advancing the clock. */
export function timedSend<TMachine extends AnyStateMachine>(machine: TMachine, actor: { send(event: EventFrom<TMachine>): void }, clock: SimulatedClock) {
  const timers = declaredTimers(machine);
  return (event: EventFrom<TMachine>) => {
    const type = (event as { type: string }).type;
    // An `after` delay's event names its delay: xstate.after.<ms>.<state id>.
    const delay = timers.get(type) ?? (type.startsWith('xstate.after.') ? Number(type.split('.')[2]) : undefined);
    if (delay === undefined) actor.send(event);
    else clock.increment(delay);
  };
}

/**
 * The transitions a machine's walks cover over all their inputs (each plan's covered set already holds the start's
 * transitions), what none of them covers, and a one-line summary.
 */
export function coverageOver(machine: AnyStateMachine, plans: readonly { plan: { covered: Set<string> } }[]): { uncovered: string[]; summary: string } {
  const covered = new Set<string>();
  for (const { plan } of plans) plan.covered.forEach((k) => covered.add(k));
  const total = allTransitions(machine);
  const uncovered = total.filter((t) => !covered.has(t.key)).map((t) => t.key);
  const done = total.length - uncovered.length;
  return { uncovered, summary: `${machine.id}: ${done}/${total.length} transitions covered (${Math.round((done / Math.max(1, total.length)) * 100)}%)` };
}
