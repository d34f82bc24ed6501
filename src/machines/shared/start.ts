/**
 * The `init` state of a machine whose start depends on its input: it passes on at once to `whenTrue` when the
 * guard holds, else to `otherwise`. The guard reads the input from the `xstate.init` event or the context.
 */
export function startState<G extends string, T extends string, O extends string>(description: string, guard: G, whenTrue: T, otherwise: O) {
  return { meta: { description }, always: [{ guard, target: whenTrue }, { target: otherwise }] };
}
