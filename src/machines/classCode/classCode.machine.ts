import { assign, setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { ToastRequest } from '../toasts/toasts.types';
import { failureToast, isValidClassCode, normalizeClassCode } from './classCode.rules';
import type { ClassCodeContext, ClassCodeEvent, ClassCodeInput, ClassCodeSource, VerifyClassCodeParams } from './classCode.types';
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
    /** The code being verified, as the check is asked for. */
    takePendingCode: assign((_, params: VerifyClassCodeParams) => ({ pending: params.code })),
    acceptPendingCode: assign(({ context }) => ({ code: context.pending, pending: null, lastCheckInvalid: false })),
    forgetPendingCode: assign({ pending: null }),
    forgetCode: assign(cleared),
    markCheckInvalid: assign({ lastCheckInvalid: true }),
    markCheckValid: assign({ lastCheckInvalid: false }),
  },
  guards: {
    hasStoredCode: ({ context }) => context.code !== null,
    /** A code typed in the reader's group-code panel, which applies no client check. */
    isFromReader: (_, params: { source: ClassCodeSource }) => params.source === 'reader',
    /** Exactly 8 alphanumeric characters (SPEC §5 Validation: class code). */
    isValidCode: (_, params: { code: string }) => isValidClassCode(params.code),
  },
});

type Submit = Extract<ClassCodeEvent, { type: 'classCode.submit' }>;
/** What a submitted code is checked as: a form's code is normalized, the reader's panel's is taken as typed. */
const formCheck = ({ event }: { event: Submit }): VerifyClassCodeParams => ({ code: normalizeClassCode(event.code), source: 'form' });
const readerCheck = ({ event }: { event: Submit }): VerifyClassCodeParams => ({ code: event.code, source: 'reader' });
const linkCheck = ({ event }: { event: Extract<ClassCodeEvent, { type: 'classCode.fromLink' }> }): VerifyClassCodeParams => ({ code: event.code, source: 'link' });
const submitted = ({ event }: { event: Submit }) => ({ code: event.code, source: event.source });

/** A typed or linked code starts a check, from `none` and from `active` alike. */
const startVerifying = classCodeSetup.createStateConfig({
  on: {
    'classCode.submit': [
      {
        guard: { type: 'isFromReader', params: submitted },
        target: 'verifying',
        actions: [{ type: 'takePendingCode', params: readerCheck }, { type: 'verifyClassCode', params: readerCheck }],
        description: "The reader's group-code panel submits the code as typed, with no client check.",
      },
      {
        guard: { type: 'isValidCode', params: submitted },
        target: 'verifying',
        actions: [{ type: 'takePendingCode', params: formCheck }, { type: 'verifyClassCode', params: formCheck }],
        description: 'The form submits only a valid code, upper-cased.',
      },
    ],
    'classCode.fromLink': {
      target: 'verifying',
      actions: [{ type: 'takePendingCode', params: linkCheck }, 'removeCodeFromAddress', { type: 'verifyClassCode', params: linkCheck }],
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
            actions: ['forgetPendingCode', { type: 'showToast', params: ({ event }) => failureToast(event.message) }],
            description: 'The check itself failed (rate limit, network, server): its message is shown and the earlier accepted code is kept.',
          },
          {
            target: 'none',
            actions: ['forgetPendingCode', { type: 'showToast', params: ({ event }) => failureToast(event.message) }],
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
          actions: ['markCheckInvalid', { type: 'showToast', params: ({ event }) => failureToast(event.message) }],
          description: "A visitor check failed with an API error: its message is shown and the code is marked invalid ('!').",
        },
        'classCode.checkPassed': { actions: 'markCheckValid' },
        'classCode.clear': { target: 'none', actions: ['forgetCode', 'clearStoredClassCode'] },
      },
    },
  },
});
