import type { SnapshotFrom } from 'xstate';
import type { roleModalMachine } from './roleModal.machine';
import type { RoleModalEvent, UserRole } from './roleModal.types';

/** Modal title (SPEC §2). */
export const ROLE_MODAL_TITLE = 'Personalize Your Experience';
/** Modal prompt, verbatim from SPEC §2. */
export const ROLE_MODAL_PROMPT = 'How are you using the product?';
/** The choices, in the order shown (SPEC §2). */
export const ROLE_OPTIONS: readonly { role: UserRole; label: string }[] = [
  { role: 'TEACHER', label: "I'm a Teacher" },
  { role: 'INDIVIDUAL', label: "I'm a Reader" },
];

export function connectRoleModal(snapshot: SnapshotFrom<typeof roleModalMachine>, send: (event: RoleModalEvent) => void) {
  return {
    isOpen: snapshot.matches('shown') || snapshot.matches('saving'),
    isSaving: snapshot.matches('saving'),
    title: ROLE_MODAL_TITLE,
    prompt: ROLE_MODAL_PROMPT,
    options: ROLE_OPTIONS,
    pick: (role: UserRole) => send({ type: 'role.pick', role }),
    dismiss: () => send({ type: 'role.dismiss' }),
  };
}
