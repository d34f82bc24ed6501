/** Role-selection modal (SPEC §2 Role-selection modal, §4 Role). */
import type { ActorOutcome } from '../shared/outcome';

export type UserRole = 'INDIVIDUAL' | 'TEACHER';

export interface RoleModalInput {
  /** The stored flag: the user closed the modal before. */
  closedBefore: boolean;
}

export interface RoleModalContext {
  /** The user closed the modal before; it then does not show again until sign-out. */
  closedBefore: boolean;
  /** The role being saved; null when none is. @default null */
  role: UserRole | null;
}

export type RoleModalEvent =
  /** Sent by the engine when the current user is loaded. */
  | { type: 'user.loaded'; hasRole: boolean }
  /** 'I'm a Teacher' or 'I'm a Reader'. */
  | { type: 'role.pick'; role: UserRole }
  /** The modal was closed without a choice. */
  | { type: 'role.dismiss' }
  /** Sign-out resets the closed flag. */
  | { type: 'auth.signedOut' };

/** What the role update (invoked in `saving`) answers. */
export type RoleModalDone = ActorOutcome<'role', unknown>;

export type RoleModalState = 'hidden' | 'shown' | 'saving';
