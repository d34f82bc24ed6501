import { assign, fromPromise, setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { RoleModalContext, RoleModalDone, RoleModalEvent, RoleModalInput, UserRole } from './roleModal.types';

/** Logged when the role update fails; there is no user-facing message (SPEC §8). */
export const ROLE_UPDATE_FAILED_MESSAGE = 'Failed to update user role';

export const roleModalMachine = setup({
  types: {} as { context: RoleModalContext; events: RoleModalEvent | RoleModalDone; input: RoleModalInput; meta: StateMetaWithTimers },
  actors: {
    /** Provided by the engine: PATCH /users/me/role. */
    updateRole: fromPromise<unknown, { role: UserRole }>(() => Promise.reject(new Error('provided by the engine'))),
  },
  actions: {
    /** Provided by the engine: logs the failure (no user-facing message). */
    logRoleUpdateFailed: (_, _params: { message: string; error?: unknown }) => {},
    /** Provided by the engine: stores the role-modal-closed flag. */
    storeClosedFlag: () => {},
    /** Provided by the engine: removes the role-modal-closed flag. */
    resetClosedFlag: () => {},
    takeRole: assign(({ event }) => (event.type === 'role.pick' ? { role: event.role } : {})),
    forgetRole: assign({ role: null }),
    markClosed: assign({ closedBefore: true }),
    markNotClosed: assign({ closedBefore: false, role: null }),
  },
  guards: {
    /** A current user without a role, who has not closed the modal before. */
    shouldAskForRole: ({ context, event }) => event.type === 'user.loaded' && !event.hasRole && !context.closedBefore,
  },
}).createMachine({
  id: 'roleModal',
  initial: 'hidden',
  context: ({ input }) => ({ closedBefore: input.closedBefore, role: null }),
  on: {
    'auth.signedOut': { target: '.hidden', actions: ['markNotClosed', 'resetClosedFlag'], description: 'Sign-out resets the closed flag.' },
  },
  states: {
    hidden: {
      meta: { description: 'Not shown: no user yet, the user has a role, or the user closed it before.' },
      on: { 'user.loaded': { guard: 'shouldAskForRole', target: 'shown' } },
    },
    shown: {
      meta: { description: 'Asks the user without a role how they use the product.' },
      on: {
        'role.pick': { target: 'saving', actions: 'takeRole' },
        'role.dismiss': { target: 'hidden', actions: ['markClosed', 'storeClosedFlag'], description: 'Closing records that the user closed it.' },
      },
    },
    saving: {
      meta: { description: 'The picked role is being saved (PATCH /users/me/role); the modal stays open.' },
      invoke: {
        id: 'role',
        src: 'updateRole',
        input: ({ context }) => ({ role: context.role! }),
        onDone: { target: 'hidden', actions: 'forgetRole' },
        onError: {
          target: 'shown',
          actions: ['forgetRole', { type: 'logRoleUpdateFailed', params: ({ event }) => ({ message: ROLE_UPDATE_FAILED_MESSAGE, error: event.error }) }],
          description: 'The error is logged and the modal stays open.',
        },
      },
    },
  },
});
