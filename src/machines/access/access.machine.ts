/**
 * Access (SPEC §4 Class code, §7 GET /visitors/me): who reads and what they may open. It owns the class code (the
 * classCode machine, invoked with systemId 'classCode' so the views reach it), the visitor checks of a code, the
 * stored visitor features, and the features in force, which it tells the system as a fact ('access.changed')
 * whenever they may have changed. Settings writes and the address are the system's: they are named actions the
 * system provides (a `sendParent` each).
 *
 * Two regions wait on the visitor checks:
 * - `verify`: a typed or linked code is checked; the outcome goes to the class code;
 * - `recheck`: a stored code is checked again, once, when the system hears nobody is signed in.
 */
import { assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { failureMessage } from '../../domain/failures';
import { classCodeMachine } from '../classCode';
import { accessFactsOf, initialAccess } from './access.rules';
import type { AccessContext, AccessFacts, AccessInput, AccessMachineEvent, SettingWrite, VisitorCheck } from './access.types';

type CodeReport = { value: string | null; invalid: boolean; active: boolean };
type UserFeatures = Extract<AccessMachineEvent, { type: 'user.features' }>;

const accessSetup = setup({
  types: {} as { context: AccessContext; events: AccessMachineEvent; input: AccessInput },
  actors: {
    classCode: classCodeMachine,
    /** Provided by the engine: GET /visitors/me with a class code. */
    checkVisitor: fromPromise<VisitorCheck, { code: string }>(() => Promise.reject(new Error('provided by the engine'))),
  },
  actions: {
    /** Provided by the system: write (or, for null, remove) one stored setting. */
    writeSetting: (_, _params: SettingWrite) => {},
    /** Provided by the system: the features in force may have changed. */
    tellAccess: (_, _params: AccessFacts) => {},
    /** Provided by the system: drop ?groupCode= from the address. */
    removeCodeFromAddress: () => {},
    takeUser: assign({ user: (_, params: { features: string[] | null }) => ({ features: params.features, known: true }) }),
    /** The visitor check's features and titles, kept and stored. */
    storeVisitor: assign({ visitor: (_, params: { visitor: VisitorCheck }) => ({ features: params.visitor.features, titleIds: params.visitor.titleIds ?? null }) }),
    markChecked: assign({ code: ({ context }) => ({ ...context.code, checked: context.code.value }) }),
    forgetChecked: assign({ code: ({ context }) => ({ ...context.code, checked: null }) }),
    forgetVisitor: assign({ visitor: { features: [], titleIds: null } }),
  },
  guards: {
    isValidVisitor: (_, params: { visitor: VisitorCheck }) => params.visitor.groupCodeValid,
    /** A stored, active code not checked yet, and nobody signed in: it is checked again. */
    isRecheckDue: ({ context }, params: { features: string[] | null }) => {
      const { value, active, checked } = context.code;
      return params.features === null && value !== null && active && checked !== value;
    },
    /** The class code's snapshot says something access does not know yet. */
    hasCodeMoved: ({ context }, params: CodeReport) => (['value', 'invalid', 'active'] as const).some((key) => params[key] !== context.code[key]),
  },
});

const codeReport = (snapshot: SnapshotFrom<typeof classCodeMachine>): CodeReport => ({
  value: snapshot.context.code,
  invalid: snapshot.context.lastCheckInvalid,
  active: snapshot.value === 'active',
});
const tell = { type: 'tellAccess', params: ({ context }: { context: AccessContext }) => accessFactsOf(context) } as const;
const takeUser = { type: 'takeUser', params: ({ event }: { event: UserFeatures }) => ({ features: event.features }) } as const;
type Done = { event: { output: VisitorCheck } };
/** A valid visitor check: its features and titles are kept and stored. */
const storeVisitor = [
  { type: 'storeVisitor', params: ({ event }: Done) => ({ visitor: event.output }) },
  { type: 'writeSetting', params: ({ event }: Done): SettingWrite => ({ name: 'features', value: event.output.features }) },
  { type: 'writeSetting', params: ({ event }: Done): SettingWrite => ({ name: 'classTitleIds', value: event.output.titleIds ?? null }) },
] as const;
/** The code is cleared: its stored features and titles go with it. */
const clearStored = [
  'forgetVisitor',
  { type: 'writeSetting', params: { name: 'groupCode', value: null } },
  { type: 'writeSetting', params: { name: 'features', value: null } },
  { type: 'writeSetting', params: { name: 'classTitleIds', value: null } },
] as const;

export const accessMachine = accessSetup.createMachine({
  id: 'access',
  type: 'parallel',
  context: ({ input }) => initialAccess(input),
  invoke: {
    src: 'classCode',
    id: 'classCode',
    systemId: 'classCode',
    input: ({ context }) => ({ storedCode: context.code.value }),
    onSnapshot: {
      guard: { type: 'hasCodeMoved', params: ({ event }) => codeReport(event.snapshot) },
      actions: [
        assign({
          code: ({ context, event }) => {
            const report = codeReport(event.snapshot);
            // A newly accepted code was just checked.
            return { ...report, checked: report.value === context.code.value ? context.code.checked : report.value };
          },
        }),
        tell,
      ],
    },
  },
  on: {
    'user.loaded': { actions: [{ type: 'takeUser', params: ({ event }) => ({ features: event.features ?? [] }) }, tell] },
    'auth.signedOut': { actions: [{ type: 'takeUser', params: { features: null } }, tell] },
    'auth.signedIn': { actions: sendTo('classCode', ({ event }) => event) },
    'code.removeFromAddress': { actions: 'removeCodeFromAddress' },
    'code.store': { actions: { type: 'writeSetting', params: ({ event }): SettingWrite => ({ name: 'groupCode', value: event.code }) } },
  },
  states: {
    verify: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'visitor.verify': { target: 'checking' } },
        },
        checking: {
          invoke: {
            src: 'checkVisitor',
            id: 'visitor.verify',
            input: ({ event }) => ({ code: (event as Extract<AccessMachineEvent, { type: 'visitor.verify' }>).code }),
            onDone: [
              {
                guard: { type: 'isValidVisitor', params: ({ event }) => ({ visitor: event.output }) },
                target: 'idle',
                actions: [...storeVisitor, sendTo('classCode', { type: 'classCode.verified' })],
              },
              { target: 'idle', actions: sendTo('classCode', { type: 'classCode.rejected' }) },
            ],
            // SPEC §7: an API error (429, the network) is not a verdict on the code: its own message shows.
            onError: { target: 'idle', actions: sendTo('classCode', ({ event }) => ({ type: 'classCode.verifyFailed', message: failureMessage(event.error) })) },
          },
          on: { 'visitor.verify': { target: 'checking', reenter: true } },
        },
      },
    },
    recheck: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.features': [
              { guard: { type: 'isRecheckDue', params: ({ event }) => ({ features: event.features }) }, target: 'checking', actions: [takeUser, tell, 'markChecked'] },
              { actions: [takeUser, tell] },
            ],
            'code.clear': { actions: clearStored },
          },
        },
        checking: {
          invoke: {
            src: 'checkVisitor',
            id: 'visitor.recheck',
            input: ({ context }) => ({ code: context.code.checked! }),
            onDone: [
              {
                guard: { type: 'isValidVisitor', params: ({ event }) => ({ visitor: event.output }) },
                target: 'idle',
                actions: [...storeVisitor, sendTo('classCode', { type: 'classCode.checkPassed' }), tell],
              },
              { target: 'idle', actions: sendTo('classCode', { type: 'classCode.invalidated' }) },
            ],
            onError: { target: 'idle', actions: ['forgetChecked', sendTo('classCode', ({ event }) => ({ type: 'classCode.checkFailed', message: failureMessage(event.error) }))] },
          },
          on: {
            'user.features': { actions: [takeUser, tell] },
            'code.clear': { target: 'idle', actions: clearStored },
          },
        },
      },
    },
  },
});
