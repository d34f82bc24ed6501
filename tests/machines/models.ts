/**
 * The model of each machine for the walks: the sample events (with payloads) to try in every state and the
 * inputs that pick its start state. The model tests and `npm run qa:paths` both read these, so the tests and
 * the generated QA scripts walk the same paths.
 */
import { fromPromise, type AnyStateMachine } from 'xstate';
import type { Narration, NarrationInput } from '../../src/machines/shared/audio';
import { classCodeMachine, type ClassCodeEvent, type ClassCodeInput } from '../../src/machines/classCode';
import { copyLinkMachine, type CopyLinkEvent } from '../../src/machines/copyLink';
import { highlightDecodeMachine, type HighlightDecodeEvent, type HighlightDecodeInput, type PassageFacts } from '../../src/machines/highlightDecode';
import { levelIndicatorMachine, type LevelIndicatorEvent, type LevelIndicatorInput } from '../../src/machines/levelIndicator';
import { listenAudioMachine, type ListenAudioEvent, type ListenAudioInput } from '../../src/machines/listenAudio';
import { listenFlowMachine, type ListenFlowContext, type ListenFlowEvent, type ListenFlowInput, type ListenPlayerReport, type NarrationSlot } from '../../src/machines/listenFlow';
import { missingEditionMachine, type MissingEditionEvent, type MissingEditionInput } from '../../src/machines/missingEdition';
import { passageLoadingMachine, type PassageLoadingEvent } from '../../src/machines/passageLoading';
import { readerAudioMachine, type ReaderAudioEvent, type ReaderAudioInput } from '../../src/machines/readerAudio';
import { readingSessionMachine, type ReadingSessionEvent } from '../../src/machines/readingSession';
import { roleModalMachine, type RoleModalEvent, type RoleModalInput } from '../../src/machines/roleModal';
import { toolbarMachine, type ToolbarEvent } from '../../src/machines/toolbar';
import { toastsMachine, type ToastsEvent } from '../../src/machines/toasts';
import { PortFailure } from '../../src/domain/failures';
import { fixturePublication } from '../fixtures/publication';

const publication = fixturePublication();
const facts = (hasSpeechMarks: boolean, hasDecodedText: boolean, isEnglish: boolean): PassageFacts => ({ hasSpeechMarks, hasDecodedText, isEnglish });

const classCodeEvents: ClassCodeEvent[] = [
  { type: 'classCode.submit', code: 'abcd1234', source: 'form' },
  { type: 'classCode.submit', code: 'abc', source: 'form' }, // too short: ignored
  { type: 'classCode.submit', code: 'ABCD-123', source: 'form' }, // not alphanumeric: ignored
  { type: 'classCode.submit', code: 'xyz', source: 'reader' }, // no client check
  { type: 'classCode.fromLink', code: 'LINK0001' },
  { type: 'classCode.verified' },
  { type: 'classCode.rejected', message: 'Invalid group code' },
  { type: 'classCode.verifyFailed', message: 'Too many attempts. Try again later.' },
  { type: 'classCode.invalidated' },
  { type: 'classCode.checkFailed', message: 'Service unavailable' },
  { type: 'classCode.checkPassed' },
  { type: 'classCode.clear' },
  { type: 'auth.signedIn' },
];
const classCodeInputs: ClassCodeInput[] = [{ storedCode: null }, { storedCode: 'STORED01' }];

const copyLinkEvents: CopyLinkEvent[] = [{ type: 'copy.succeeded' }, { type: 'copy.failed' }, { type: 'copy.confirmationDone' }];

const highlightDecodeEvents: HighlightDecodeEvent[] = [
  { type: 'highlight.toggle' },
  { type: 'decode.toggle' },
  { type: 'passage.changed', ...facts(false, false, true) },
  { type: 'speechMarks.loaded' },
  { type: 'decodedText.loaded' },
  { type: 'edition.changed', highlightEnabled: true, decodeEnabled: true, ...facts(false, false, true) },
  { type: 'edition.changed', highlightEnabled: false, decodeEnabled: true, ...facts(false, false, true) },
  { type: 'edition.changed', highlightEnabled: true, decodeEnabled: false, ...facts(false, false, false) },
  { type: 'features.changed', hasDecodeFeature: true },
  { type: 'features.changed', hasDecodeFeature: false },
];
const highlightDecodeBase: HighlightDecodeInput = {
  highlightEnabled: true,
  decodeEnabled: true,
  hasDecodeFeature: true,
  hasSpeechMarks: false,
  hasDecodedText: false,
  isEnglish: true,
  savedMode: 'off',
};

const levelIndicatorEvents: LevelIndicatorEvent[] = [{ type: 'indicator.hover' }, { type: 'indicator.timeout' }];
const levelIndicatorInputs: LevelIndicatorInput[] = [{ seenBefore: false }, { seenBefore: true }];

const listenAudioEvents: ListenAudioEvent[] = [
  { type: 'listen.toggle' },
  { type: 'listen.ended' },
  { type: 'listen.advanceDue' },
  { type: 'listen.nextReady' },
  { type: 'listen.nextTimeout' },
  { type: 'listen.close' },
  { type: 'listen.open' },
  { type: 'listen.autoPlay.set', value: true },
  { type: 'listen.autoPlay.set', value: false },
  { type: 'listen.page.changed', isLastPage: true },
  { type: 'listen.page.changed', isLastPage: false },
];
const listenAudioInputs: ListenAudioInput[] = [
  { autoPlay: true, isLastPage: false },
  { autoPlay: false, isLastPage: false },
];

/** The listen flow on an edition of two passages, from passage 1. */
export const listenFlowBase: ListenFlowInput = {
  autoPlay: false,
  isLastPage: false,
  editionId: 41,
  position: 1,
  passageCount: 2,
  basePath: '/listen/fox/v1/en-GOLD',
  language: 'en',
  audioLocked: false,
};
// Locked from the start (on a one-passage edition, which keeps that walk small); an edition without narration (and,
// as on the teaser page, with no address to push).
const listenFlowInputs: ListenFlowInput[] = [
  listenFlowBase,
  { ...listenFlowBase, audioLocked: true, passageCount: 1, isLastPage: true },
  { ...listenFlowBase, audioEnabled: false, basePath: undefined },
];
const playerReport = (value: ListenPlayerReport['value'], autoPlay: boolean): ListenFlowEvent => ({
  type: 'xstate.snapshot.listenAudio',
  snapshot: { value, context: { autoPlay, isLastPage: false } },
});
/**
 * A load's answers (none when the slot loads nothing). The url names the load, not the passage: the walk treats
 * snapshots at different positions as one state, so a sample cannot know the position it will be replayed at.
 */
function narrationAnswers(context: ListenFlowContext, slot: NarrationSlot): ListenFlowEvent[] {
  if (!Object.values(context.narrations).some((a) => a.status === 'loading' && a.by === slot)) return [];
  const output = { url: `/audio/${slot}.mp3`, speechMarks: [], duration: 20 };
  const network = new PortFailure('network', 0, 'Network down');
  const gate = new PortFailure('license_required', 403, 'License required');
  return slot === 'narration.current'
    ? [
        { type: 'xstate.done.actor.narration.current', output, actorId: slot },
        { type: 'xstate.error.actor.narration.current', error: network, actorId: slot },
        { type: 'xstate.error.actor.narration.current', error: gate, actorId: slot },
      ]
    : [
        { type: 'xstate.done.actor.narration.next', output, actorId: slot },
        { type: 'xstate.error.actor.narration.next', error: network, actorId: slot },
        { type: 'xstate.error.actor.narration.next', error: gate, actorId: slot },
      ];
}
/** The flow's sample events; the narration answers are those of the loads running in the snapshot. */
const listenFlowEventsFor = (snapshot: { context: ListenFlowContext }): ListenFlowEvent[] => [
  // What the listen player reports (syncSnapshot) and asks for (sendParent).
  playerReport('playing', true),
  playerReport('paused', true),
  playerReport('finished', true),
  playerReport('loadingNext', true),
  playerReport('closed', true),
  { type: 'listen.restart' },
  { type: 'listen.prefetchNext' },
  { type: 'listen.advance' },
  // The player's own events, forwarded.
  { type: 'listen.toggle' },
  { type: 'listen.close' },
  { type: 'listen.open' },
  { type: 'listen.autoPlay.set', value: false },
  // The view and the parent.
  { type: 'listen.page', position: 1 },
  { type: 'listen.page', position: 2 },
  { type: 'listen.seek', seconds: 12 },
  { type: 'listen.locked', locked: true },
  { type: 'listen.locked', locked: false },
  // Narration loads: an answer, a network failure, a gate.
  ...narrationAnswers(snapshot.context, 'narration.current'),
  ...narrationAnswers(snapshot.context, 'narration.next'),
  // Playback reports.
  { type: 'playback.time', time: 3.5, duration: 20 },
  { type: 'playback.ended' },
  { type: 'playback.refused' },
];

const missingEditionEvents: MissingEditionEvent[] = [
  { type: 'edition.missing', language: 'en', level: 'B1' },
  { type: 'edition.missing', language: 'es', level: 'A2' },
  { type: 'edition.created' },
  { type: 'edition.creationFailed' },
  { type: 'edition.reset' },
];

const passageLoadingEvents: PassageLoadingEvent[] = [
  { type: 'passage.load' },
  { type: 'passage.spinnerDue' },
  { type: 'passage.refreshDue' },
  { type: 'passage.refresh' },
  { type: 'passage.loaded' },
  { type: 'passage.groupCodeRequired' },
  { type: 'passage.licenseRequired' },
  { type: 'passage.failed', status: 404 },
  { type: 'passage.failed', status: 503 },
];

const readerAudioEvents: ReaderAudioEvent[] = [
  { type: 'audio.open' },
  { type: 'audio.close' },
  { type: 'audio.pause' },
  { type: 'audio.play' },
  { type: 'audio.toggle' },
  { type: 'audio.ended' },
  { type: 'license.required' },
];
const readerAudioInputs: ReaderAudioInput[] = [{ hasSavedSettings: true }, { hasSavedSettings: false }];

const readingSessionEvents: ReadingSessionEvent[] = [
  { type: 'session.open', request: { slug: 'fixture', position: 3 } },
  { type: 'session.open', request: { slug: 'fixture', position: 0 } },
  { type: 'publication.loaded', publication },
  { type: 'publication.failed', status: 404, message: 'Publication not found' },
  { type: 'publication.reload' },
  { type: 'page.next' },
  { type: 'page.previous' },
  { type: 'page.goto', position: 1 },
  { type: 'language.change', slot: 'primary', language: 'es' },
  { type: 'language.change', slot: 'primary', language: 'ru' },
  { type: 'level.change', slot: 'primary', level: 'GOLD' },
  { type: 'level.change', slot: 'primary', level: 'SILVER' },
  { type: 'secondary.set', choice: { language: 'es', level: 'ORIGINAL' } },
  { type: 'secondary.clear' },
  { type: 'session.close' },
];

const roleModalEvents: RoleModalEvent[] = [
  { type: 'user.loaded', hasRole: false },
  { type: 'user.loaded', hasRole: true },
  { type: 'role.pick', role: 'TEACHER' },
  { type: 'role.pick', role: 'INDIVIDUAL' },
  { type: 'role.saved' },
  { type: 'role.failed', error: 'HTTP 500' },
  { type: 'role.dismiss' },
  { type: 'auth.signedOut' },
];
const roleModalInputs: RoleModalInput[] = [{ closedBefore: false }, { closedBefore: true }];

const toolbarEvents: ToolbarEvent[] = [{ type: 'toolbar.activity' }, { type: 'toolbar.idle' }, { type: 'toolbar.hold' }, { type: 'toolbar.release' }];

export const toastMessages = ['Class Code Accepted', 'Invalid Class Code', 'Failed to copy link', 'Title shown to students'];
/** Four distinct messages (so the oldest gets dropped), a repeat of each, and a dismissal of each shown toast. */
const toastsEventsFor = (snapshot: { context: { toasts: { id: number }[] } }): ToastsEvent[] => [
  ...toastMessages.map((message, i): ToastsEvent => ({ type: 'toast.show', kind: i % 2 ? 'error' : 'success', message })),
  ...snapshot.context.toasts.map((t): ToastsEvent => ({ type: 'toast.dismiss', id: t.id })),
  { type: 'toast.dismiss', id: 999 },
];

export interface MachineModel {
  machine: AnyStateMachine;
  /** Sample events, or a function of the snapshot when payloads depend on it. */
  events: any;
  /** One walk per input; `[undefined]` when the machine takes none. */
  inputs: any[];
  /** What makes two snapshots the same state for the walk (default: value plus context). */
  serializeState?: (snapshot: any) => string;
  maxStates?: number;
}

const byValue = (s: { value: unknown }) => JSON.stringify(s.value);

/** Every machine of src/machines, with its walk model. */
export const MODELS = {
  classCode: { machine: classCodeMachine, events: classCodeEvents, inputs: classCodeInputs },
  copyLink: { machine: copyLinkMachine, events: copyLinkEvents, inputs: [undefined] },
  highlightDecode: {
    machine: highlightDecodeMachine,
    events: highlightDecodeEvents,
    inputs: [highlightDecodeBase, { ...highlightDecodeBase, savedMode: 'highlight' }, { ...highlightDecodeBase, savedMode: 'decode' }] as HighlightDecodeInput[],
    serializeState: (s: { value: unknown; context: HighlightDecodeInput }) => JSON.stringify([s.value, s.context]),
    maxStates: 5000,
  },
  levelIndicator: { machine: levelIndicatorMachine, events: levelIndicatorEvents, inputs: levelIndicatorInputs },
  listenAudio: { machine: listenAudioMachine, events: listenAudioEvents, inputs: listenAudioInputs },
  listenFlow: {
    // Narration loads never settle on their own in the walks: their answers are sample events.
    machine: listenFlowMachine.provide({ actors: { loadNarration: fromPromise<Narration, NarrationInput>(() => new Promise(() => {})) } }),
    events: listenFlowEventsFor,
    inputs: listenFlowInputs,
    // What the flow's guards read: the state, the player's state, and how far the narration of this passage and
    // the next has got (which load fetches it, whether it is in the audio port). Positions and times are left out.
    serializeState: (s: { value: unknown; context: ListenFlowContext }) => {
      const c = s.context;
      const status = (p: number) => {
        const a = c.narrations[p];
        return !a ? '-' : a.status === 'loading' ? a.by : a.status === 'ready' ? (c.loadedUrl === a.url ? 'loaded' : 'ready') : a.status;
      };
      return JSON.stringify([s.value, c.player.state, status(c.position), status(c.position + 1)]);
    },
    maxStates: 20000,
  },
  missingEdition: { machine: missingEditionMachine, events: missingEditionEvents, inputs: [{ slot: 'primary' }] as MissingEditionInput[] },
  passageLoading: { machine: passageLoadingMachine, events: passageLoadingEvents, inputs: [undefined] },
  readerAudio: { machine: readerAudioMachine, events: readerAudioEvents, inputs: readerAudioInputs },
  readingSession: {
    machine: readingSessionMachine,
    events: readingSessionEvents,
    inputs: [{}],
    serializeState: (s: { value: unknown; context: { primary: unknown; secondary: unknown; position: number; publication: unknown } }) =>
      JSON.stringify([s.value, s.context.primary, s.context.secondary, s.context.position, !!s.context.publication]),
    maxStates: 2000,
  },
  roleModal: { machine: roleModalMachine, events: roleModalEvents, inputs: roleModalInputs },
  toasts: {
    machine: toastsMachine,
    events: toastsEventsFor,
    inputs: [undefined],
    // Ids grow without end; the walk treats the same messages in the same order as one state.
    serializeState: (s: { context: { toasts: { message: string }[] } }) => JSON.stringify(s.context.toasts.map((t) => t.message)),
    maxStates: 1000,
  },
  toolbar: { machine: toolbarMachine, events: toolbarEvents, inputs: [undefined], serializeState: byValue },
} satisfies Record<string, MachineModel>;
