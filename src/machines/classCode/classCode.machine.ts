import { assign, setup } from 'xstate';
import { DEFAULT_ERROR_MESSAGE } from '../../domain/constants';
import type { StateMetaWithTimers } from '../shared/timers';
import type { ToastRequest } from '../toasts/toasts.types';
import { isValidClassCode, normalizeClassCode } from './classCode.rules';
import type { ClassCodeContext, ClassCodeEvent, ClassCodeInput, VerifyClassCodeParams } from './classCode.types';
import { startState } from '../shared/start';

/** Toast after a successful verification (SPEC §5, §8). */
export const CLASS_CODE_ACCEPTED_MESSAGE = 'Class Code Accepted';
/** Toast after a failed verification or an invalid visitor check (SPEC §5, §8). */
export const INVALID_CLASS_CODE_MESSAGE = 'Invalid Class Code';

const acceptedToast: ToastRequest = { kind: 'success', message: CLASS_CODE_ACCEPTED_MESSAGE };
const invalidToast: ToastRequest = { kind: 'error', message: INVALID_CLASS_CODE_MESSAGE };
const cleared = { code: null, pending: null, lastCheckInvalid: false } satisfies ClassCodeContext;

const classCodeSetup = setup({
  types: {} as { context: ClassCodeContext; events: ClassCodeEvent; input: ClassCodeInput; meta: StateMetaWithTimers },
  actions: {
    /**
     * Provided by the system: checks the code with GET /visitors/me, then sends 'classCode.verified',
     * 'classCode.rejected' (groupCodeValid false) or 'classCode.verifyFailed' (an API error).
     */
    verifyClassCode: (_, _params: VerifyClassCodeParams) => {},
    /** Provided by the engine: removes the class-code query parameter from the address. */
    removeCodeFromAddress: () => {},
    /** Provided by the engine: writes the accepted code to storage. */
    storeClassCode: (_, _params: { code: string }) => {},
    /** Provided by the engine: removes the code from storage. */
    clearStoredClassCode: () => {},
    /** Provided by the engine: sends 'toast.show' to the toast queue. */
    showToast: (_, _params: ToastRequest) => {},
    takeSubmittedCode: assign(({ event }) => {
      if (event.type !== 'classCode.submit') return {};
      return { pending: event.source === 'form' ? normalizeClassCode(event.code) : event.code };
    }),
    takeLinkCode: assign(({ event }) => (event.type === 'classCode.fromLink' ? { pending: event.code } : {})),
    acceptPendingCode: assign(({ context }) => ({ code: context.pending, pending: null, lastCheckInvalid: false })),
    forgetPendingCode: assign({ pending: null }),
    forgetCode: assign(cleared),
    markCheckInvalid: assign({ lastCheckInvalid: true }),
    markCheckValid: assign({ lastCheckInvalid: false }),
  },
  guards: {
    hasStoredCode: ({ context }) => context.code !== null,
    /** The form only submits a valid code; the reader's group-code panel applies no client check. */
    isSubmittable: ({ event }) => event.type === 'classCode.submit' && (event.source === 'reader' || isValidClassCode(event.code)),
  },
});

/** A typed or linked code starts a check, from `none` and from `active` alike. */
const startVerifying = classCodeSetup.createStateConfig({
  on: {
        'classCode.submit': {
          guard: 'isSubmittable',
          target: 'verifying',
          actions: [
            'takeSubmittedCode',
            { type: 'verifyClassCode', params: ({ context, event }) => ({ code: context.pending ?? '', source: event.source }) },
          ],
        },
        'classCode.fromLink': {
          target: 'verifying',
          actions: ['takeLinkCode', 'removeCodeFromAddress', { type: 'verifyClassCode', params: ({ context }) => ({ code: context.pending ?? '', source: 'link' }) }],
        },
  },
});

export const classCodeMachine = classCodeSetup.createMachine({
  id: 'classCode',
  initial: 'init',
  context: ({ input }) => ({ ...cleared, code: input.storedCode ? input.storedCode : null }),
  // Signing in clears the class code, whatever the state (SPEC §4 Class code).
  on: {
    'auth.signedIn': { target: '.none', actions: ['forgetCode', 'clearStoredClassCode'], description: 'Signing in clears the class code.' },
  },
  states: {
    init: startState('Chooses the start state from the stored code.', 'hasStoredCode', 'active', 'none'),
    none: {
      meta: { description: 'No class code: the visitor sees the Free Library.' },
      on: {
        ...startVerifying.on,
      },
    },
    verifying: {
      meta: { description: 'A code is being checked with GET /visitors/me; an earlier accepted code is kept meanwhile.' },
      on: {
        'classCode.verified': {
          target: 'active',
          actions: [
            'acceptPendingCode',
            { type: 'storeClassCode', params: ({ context }) => ({ code: context.code ?? '' }) },
            { type: 'showToast', params: acceptedToast },
          ],
          description: 'Accepted means stored.',
        },
        'classCode.rejected': {
          target: 'none',
          actions: ['forgetCode', 'clearStoredClassCode', { type: 'showToast', params: invalidToast }],
          description: 'The server judged the code invalid: cleared, an earlier accepted code included.',
        },
        'classCode.verifyFailed': [
          {
            guard: 'hasStoredCode',
            target: 'active',
            actions: ['forgetPendingCode', { type: 'showToast', params: ({ event }) => ({ kind: 'error', message: event.message || DEFAULT_ERROR_MESSAGE }) }],
            description: 'The check itself failed (rate limit, network, server): its message is shown and the earlier accepted code is kept.',
          },
          {
            target: 'none',
            actions: ['forgetPendingCode', { type: 'showToast', params: ({ event }) => ({ kind: 'error', message: event.message || DEFAULT_ERROR_MESSAGE }) }],
            description: 'The check itself failed: its message is shown; the code was not judged, so nothing is cleared.',
          },
        ],
        'classCode.clear': { target: 'none', actions: ['forgetCode', 'clearStoredClassCode'] },
      },
    },
    active: {
      meta: { description: 'A verified code is stored and sent with requests; the menu shows it.' },
      on: {
        ...startVerifying.on,
        'classCode.invalidated': {
          target: 'none',
          actions: ['forgetCode', 'clearStoredClassCode', { type: 'showToast', params: invalidToast }],
          description: 'A visitor check answered that the stored code is invalid.',
        },
        'classCode.checkFailed': {
          actions: ['markCheckInvalid', { type: 'showToast', params: ({ event }) => ({ kind: 'error', message: event.message ?? DEFAULT_ERROR_MESSAGE }) }],
          description: "A visitor check failed with an API error: its message is shown and the code is marked invalid ('!').",
        },
        'classCode.checkPassed': { actions: 'markCheckValid' },
        'classCode.clear': { target: 'none', actions: ['forgetCode', 'clearStoredClassCode'] },
      },
    },
  },
});
