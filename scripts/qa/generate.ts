/**
 * Generates the machine docs and QA scripts from the machines themselves:
 * - docs/machines/<machine>.md: a Mermaid state diagram, the states (with timers), the events and the guards;
 * - docs/qa/<machine>.md: every transition with the shortest event path that reaches and takes it;
 * - docs/qa/readerSystem.composed.md: the reader system's composed paths, from their table and from their
 *   generation on the engine (composedPaths.ts, generatedPaths.ts).
 * `npm run qa:paths` writes them; a test fails when the committed files differ from what this produces.
 */
import { createActor, type AnyStateMachine } from 'xstate';
import { MODELS, type MachineModel } from '../../tests/machines/models';
import { allTransitions, planTransitionWalk, transitionKey } from '../../tests/machines/harness';
import { COMPOSED_PATHS_FILE, composedPathsDoc, composedPathsLink } from './composedPaths';
import { runGeneration } from './generatedPaths';

interface NodeLike {
  id: string;
  key: string;
  type?: string;
  initial?: { target: { key: string }[] };
  meta?: { description?: string; timers?: { id: string; delay: number; event: { type: string } }[] };
  states: Record<string, NodeLike>;
  transitions: Map<string, TransitionLike[]>;
  always?: TransitionLike[];
  description?: string;
}
interface TransitionLike {
  source: NodeLike;
  target?: NodeLike[];
  eventType: string;
  guard?: unknown;
  actions: unknown[];
  description?: string;
  reenter?: boolean;
}

/** A guard's name; an inline `not(guard)` reads `!guard`. */
const guardName = (g: unknown): string | null =>
  !g
    ? null
    : typeof g === 'string'
      ? g
      : typeof g === 'object' && g && 'type' in g
        ? String((g as { type: unknown }).type)
        : typeof g === 'function' && g.name === 'not' && Array.isArray((g as { guards?: unknown }).guards)
          ? `!${guardName((g as unknown as { guards: unknown[] }).guards[0])}`
          : 'guard';

const actionName = (a: unknown): string | null => {
  const name = typeof a === 'string' ? a : typeof a === 'object' && a && 'type' in a ? String((a as { type: unknown }).type) : typeof a === 'function' ? a.name || 'action' : null;
  return name && !name.startsWith('xstate.') ? name : name === 'xstate.assign' ? 'assign' : name;
};

const stateLabel = (machine: AnyStateMachine, node: NodeLike) => (node.id === machine.id ? '(any state)' : node.id.slice(machine.id.length + 1));
const escapeCell = (s: string) => s.replace(/\|/g, '\\|');

function transitionsWithDetail(machine: AnyStateMachine) {
  const keys = allTransitions(machine);
  const out: { key: string; from: string; to: string; event: string; guard: string | null; actions: string[]; description: string }[] = [];
  let i = 0;
  const visit = (node: NodeLike) => {
    const push = (t: TransitionLike) => {
      const ref = keys[i++];
      out.push({
        key: ref.key,
        from: stateLabel(machine, t.source),
        to: (t.target ?? []).map((n) => stateLabel(machine, n)).join(', ') || '(stays)',
        event: t.eventType === '' ? 'always' : t.eventType,
        guard: guardName(t.guard),
        actions: (t.actions ?? []).map(actionName).filter((a): a is string => !!a),
        description: t.description ?? '',
      });
    };
    for (const [, list] of node.transitions) list.forEach(push);
    (node.always ?? []).forEach(push);
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root as unknown as NodeLike);
  return out;
}

/**
 * A parallel machine's diagram: each region with states is a composite state (its states named `region_state`,
 * labelled by key, its initial state marked, its transitions inside); a region without states is one state with
 * its own transitions. The root's own transitions are listed under the diagram.
 */
function parallelDiagram(root: NodeLike, transitions: ReturnType<typeof transitionsWithDetail>): string[] {
  const lines: string[] = [];
  const idOf = (label: string) => label.replace(/\./g, '_');
  const label = (t: { event: string; guard: string | null }) => `${t.event}${t.guard ? ` [${t.guard}]` : ''}`;
  for (const [key, region] of Object.entries(root.states)) {
    const own = transitions.filter((t) => t.from === key || t.from.startsWith(`${key}.`));
    if (Object.keys(region.states).length === 0) {
      for (const t of own) lines.push(`  ${key} --> ${t.to === '(stays)' ? key : idOf(t.to)} : ${label(t)}`);
      continue;
    }
    lines.push(`  state ${key} {`);
    for (const childKey of Object.keys(region.states)) lines.push(`    state "${childKey}" as ${key}_${childKey}`);
    const first = region.initial?.target[0]?.key;
    if (first) lines.push(`    [*] --> ${key}_${first}`);
    for (const t of own) lines.push(`    ${idOf(t.from)} --> ${t.to === '(stays)' ? idOf(t.from) : idOf(t.to)} : ${label(t)}`);
    lines.push('  }');
  }
  return lines;
}

export function machineDoc(name: string, model: MachineModel): string {
  const machine = model.machine;
  const root = machine.root as unknown as NodeLike;
  const transitions = transitionsWithDetail(machine);
  const lines: string[] = [];
  lines.push(`# ${name}`, '', `Generated from \`src/machines/${name}\` by \`npm run qa:paths\`. Do not edit by hand.`, '');
  lines.push('```mermaid', 'stateDiagram-v2');
  const initial = root.initial?.target[0]?.key;
  if (root.type === 'parallel') lines.push(...parallelDiagram(root, transitions));
  else {
    if (initial) lines.push(`  [*] --> ${initial}`);
    for (const t of transitions) {
      if (t.from === '(any state)') continue;
      const label = `${t.event}${t.guard ? ` [${t.guard}]` : ''}`;
      const to = t.to === '(stays)' ? t.from : t.to;
      lines.push(`  ${t.from} --> ${to} : ${label}`);
    }
  }
  lines.push('```', '');
  const global = transitions.filter((t) => t.from === '(any state)');
  if (global.length) {
    lines.push('From any state:', '');
    for (const t of global) lines.push(`- \`${t.event}\`${t.guard ? ` when \`${t.guard}\`` : ''} → ${t.to}${t.actions.length ? ` (${t.actions.join(', ')})` : ''}`);
    lines.push('');
  }
  lines.push('## States', '', '| state | description | timers |', '|---|---|---|');
  // A parallel machine lists its regions and their states (`region.state`), each region's initial state marked.
  const listed: [string, NodeLike, boolean][] = [];
  const list = (node: NodeLike, prefix: string, nested: boolean) => {
    const first = node.initial?.target[0]?.key;
    for (const [key, child] of Object.entries(node.states)) {
      listed.push([`${prefix}${key}`, child, nested ? key === first : key === initial]);
      if (nested && root.type === 'parallel') list(child, `${prefix}${key}.`, true);
    }
  };
  list(root, '', root.type === 'parallel');
  for (const [key, node, isInitial] of listed) {
    const timers = (node.meta?.timers ?? []).map((t) => `after ${t.delay} ms: \`${t.event.type}\``).join('<br>') || '';
    lines.push(`| \`${key}\`${isInitial ? ' (initial)' : ''} | ${escapeCell(node.meta?.description ?? '')} | ${timers} |`);
  }
  lines.push('', '## Transitions', '', '| from | event | guard | to | actions |', '|---|---|---|---|---|');
  for (const t of transitions) {
    lines.push(`| ${t.from} | \`${t.event}\` | ${t.guard ? `\`${t.guard}\`` : ''} | ${t.to} | ${t.actions.map((a) => `\`${a}\``).join(', ')} |`);
  }
  const guards = [...new Set(transitions.map((t) => t.guard).filter((g): g is string => !!g))].sort();
  lines.push('', '## Guards', '');
  lines.push(...(guards.length ? guards.map((g) => `- \`${g}\``) : ['None.']));
  const events = [...new Set(transitions.map((t) => t.event))].sort();
  lines.push('', '## Events', '', ...events.map((e) => `- \`${e}\``), '');
  return lines.join('\n');
}

/**
 * Eventless (`always`) transitions taken after an event have no case of their own, and a case's last transition is
 * read from the walk's state, which a coarse model may reach another way: find the shortest walk that takes each
 * transition still without a path, by replaying the walks on a live actor and noting its microsteps.
 */
function addEventlessPaths(model: MachineModel, best: Map<string, { input: unknown; events: { type: string }[] }>) {
  const machine = model.machine;
  const missing = new Set(allTransitions(machine).filter((t) => !best.has(t.key)).map((t) => t.key));
  if (missing.size === 0) return;
  for (const input of model.inputs) {
    const plan = planTransitionWalk(machine, { events: model.events, input, serializeState: model.serializeState, maxStates: model.maxStates });
    for (const c of [...plan.cases].sort((a, b) => a.events.length - b.events.length)) {
      let taken: string[] = [];
      const actor = createActor(machine, {
        input,
        inspect: (ev: { type: string }) => {
          if (ev.type !== '@xstate.microstep') return;
          for (const t of (ev as unknown as { _transitions: Parameters<typeof transitionKey>[0][] })._transitions) {
            const source = t.source as unknown as { always?: unknown[]; transitions: Map<string, unknown[]> };
            const list = t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
            taken.push(transitionKey(t, list.indexOf(t)));
          }
        },
      });
      actor.start();
      c.events.forEach((event, i) => {
        taken = [];
        actor.send(event);
        for (const key of taken) {
          const current = best.get(key);
          if (missing.has(key) && (!current || i + 1 < current.events.length)) best.set(key, { input, events: c.events.slice(0, i + 1) as { type: string }[] });
        }
      });
      actor.stop();
    }
  }
}

export function qaDoc(name: string, model: MachineModel): string {
  const machine = model.machine;
  const best = new Map<string, { input: unknown; events: { type: string }[] }>();
  for (const input of model.inputs) {
    const plan = planTransitionWalk(machine, { events: model.events, input, serializeState: model.serializeState, maxStates: model.maxStates });
    for (const key of plan.startTransitions) if (!best.has(key)) best.set(key, { input, events: [] });
    for (const c of plan.cases) {
      for (const key of c.transitions) {
        const current = best.get(key);
        if (!current || c.events.length < current.events.length) best.set(key, { input, events: c.events as { type: string }[] });
      }
    }
  }
  addEventlessPaths(model, best);
  const transitions = transitionsWithDetail(machine);
  const lines: string[] = [];
  lines.push(`# QA paths: ${name}`, '', `Generated from \`src/machines/${name}\` by \`npm run qa:paths\`. Do not edit by hand.`, '');
  lines.push(
    'Each transition of the machine, with the shortest sequence of events that reaches it and takes it. Start',
    'from a fresh reader with the given input, send the events in order, and check the state after the last one.',
    '',
  );
  const covered = transitions.filter((t) => best.has(t.key)).length;
  lines.push(`Transitions: ${transitions.length}. Reached by a path: ${covered}.`, '');
  transitions.forEach((t, i) => {
    const path = best.get(t.key);
    lines.push(`## ${i + 1}. ${t.from} → ${t.to} on \`${t.event}\`${t.guard ? ` when \`${t.guard}\`` : ''}`, '');
    if (t.description) lines.push(t.description, '');
    if (!path) {
      lines.push('No path reaches this transition with the modelled events.', '');
      return;
    }
    if (path.input !== undefined) lines.push(`Input: \`${JSON.stringify(path.input)}\``, '');
    if (path.events.length === 0) lines.push('Taken at start.', '');
    else path.events.forEach((e, n) => lines.push(`${n + 1}. \`${JSON.stringify(e)}\``));
    if (path.events.length) lines.push('');
    if (t.actions.length) lines.push(`Actions: ${t.actions.map((a) => `\`${a}\``).join(', ')}`, '');
  });
  return lines.join('\n');
}

export function generateAll(): Map<string, string> {
  const files = new Map<string, string>();
  const index = ['# Machines', '', 'Generated by `npm run qa:paths` from the machines in `src/machines`. Each page has the state diagram; `docs/qa/` has the QA paths.', ''];
  for (const [name, model] of Object.entries(MODELS) as [string, MachineModel][]) {
    files.set(`docs/machines/${name}.md`, machineDoc(name, model));
    files.set(`docs/qa/${name}.md`, qaDoc(name, model));
    index.push(`- [${name}](${name}.md), QA: [../qa/${name}.md](../qa/${name}.md)${composedPathsLink(name)}`);
  }
  files.set(COMPOSED_PATHS_FILE, composedPathsDoc(runGeneration()));
  files.set('docs/machines/README.md', index.join('\n') + '\n');
  return files;
}
