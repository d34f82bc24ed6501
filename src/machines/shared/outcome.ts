/** The two events XState sends when the actor invoked or spawned with this id ends: its output, or its error. */
export type ActorOutcome<Id extends string, Output> =
  | { type: `xstate.done.actor.${Id}`; output: Output }
  | { type: `xstate.error.actor.${Id}`; error: unknown };
