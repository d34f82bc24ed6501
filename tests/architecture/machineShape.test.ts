/**
 * The machines' shape (docs/architecture.md, "Machines"; `npm run machine:metrics`): every machine in src/machines is
 * at most 250 lines, and one over 80 lines has at least as many `target:` transitions as code branches.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countShape, machineMetrics, shapeProblem, type MachineMetrics } from '../../scripts/machine-metrics';

const root = path.resolve(import.meta.dirname, '../..');


const machines = machineMetrics(root);

describe('the machines in src/machines', () => {
  it('are found, with their actions and guards files', () => {
    expect(machines.map((m) => m.name)).toEqual(expect.arrayContaining(['readerSystem', 'readerColumn', 'listenFlow', 'toolbar']));
    expect(machines.every((m) => m.files[0]!.endsWith('.machine.ts'))).toBe(true);
  });

  it.each(machines.map((m) => [m.name, m] as const))('%s keeps to the rule', (_, machine: MachineMetrics) => {
    expect(shapeProblem(machine)).toBeNull();
  });
});

describe('how a machine is measured', () => {
  it('counts targets and the five kinds of branch, never inside comments, strings or templates', () => {
    const source = [
      '// if (commented) a && b',
      "const s = 'if (x) a ? b : c';",
      'const t = `${a ?? b} and ${ {x: 1}.x ? 1 : 2 }`;',
      'if (a) { x = b || c; }',
      "const config = { target: 'next', on: { go: { target: 'done' } } };",
      'const y = a && b;',
    ].join('\n');
    expect(countShape(source)).toEqual({ targets: 2, branches: 5 });
  });

  it('reports a machine over the rule', () => {
    expect(shapeProblem({ name: 'big', files: [], lines: 251, targets: 40, branches: 0 })).toMatch(/251 lines/);
    expect(shapeProblem({ name: 'branchy', files: [], lines: 81, targets: 3, branches: 4 })).toMatch(/3 targets against 4 branches/);
    expect(shapeProblem({ name: 'small', files: [], lines: 80, targets: 0, branches: 9 })).toBeNull();
  });
});
