/**
 * The model of each machine for the walks: the sample events (with payloads) to try in every state and the
 * inputs that pick its start state. The model tests and `npm run qa:paths` both read these, so the tests and
 * the generated QA scripts walk the same paths.
 */
import { createMachine, fromCallback, fromPromise, type ActorLogic, type AnyActorRef, type AnyStateMachine } from 'xstate';
import type { Narration, NarrationInput } from '../../src/machines/shared/audio';
import { accessMachine, type AccessContext, type AccessInput, type AccessMachineEvent } from '../../src/machines/access';
import { classCodeMachine, type ClassCodeEvent, type ClassCodeInput } from '../../src/machines/classCode';
import { copyLinkMachine, type CopyLinkDone, type CopyLinkEvent } from '../../src/machines/copyLink';
import { highlightDecodeMachine, type HighlightDecodeEvent, type HighlightDecodeInput, type PassageFacts } from '../../src/machines/highlightDecode';
import { levelIndicatorMachine, type LevelIndicatorEvent, type LevelIndicatorInput } from '../../src/machines/levelIndicator';
import { premiumDialogMachine, type PremiumDialogEvent } from '../../src/machines/premiumDialog';
import { listenAudioMachine, type ListenAudioEvent, type ListenAudioInput } from '../../src/machines/listenAudio';
import { listenFlowMachine, type ListenFlowContext, type ListenFlowEvent, type ListenFlowInput, type ListenPlayerReport, type NarrationSlot } from '../../src/machines/listenFlow';
import { offlineDownloadMachine, type OfflineDownloadEvent, type OfflineDownloadReport } from '../../src/machines/offlineDownload';
import { readerColumnMachine, type ColumnPlan, type ReaderColumnDone, type ReaderColumnEvent, type ReaderColumnInput } from '../../src/machines/readerColumn';
import { playerMachine, type PlayerContext, type PlayerEvent, type PlayerInput, type PlayerTrack } from '../../src/machines/player';
import { readingSessionMachine, type ReadingSessionContext, type ReadingSessionEvent } from '../../src/machines/readingSession';
import { roleModalMachine, type RoleModalDone, type RoleModalEvent, type RoleModalInput } from '../../src/machines/roleModal';
import { isApplicable, rosterUploadMachine, type RosterReport, type RosterUploadContext, type RosterUploadDone, type RosterUploadEvent } from '../../src/machines/rosterUpload';
import { toolbarMachine, type ToolbarEvent } from '../../src/machines/toolbar';
import { toastsMachine, type ToastsEvent } from '../../src/machines/toasts';
import { wordAudioMachine, type WordAudioDone, type WordAudioEvent, type WordRequest } from '../../src/machines/wordAudio';
import { PortFailure } from '../../src/domain/failures';
import { edition, fixturePassage, fixturePublication } from '../fixtures/publication';
import { ENGINE_SETTINGS, SETTINGS, type AudioSettings } from '../../src/domain/settings';
import type { OnDemandEditionBody, Passage, Publication } from '../../src/domain/schemas';
import type { UserRole } from '../../src/machines/roleModal';
import {
  readerSystemMachine,
  type ReaderSystemContext,
  type ReaderSystemInput,
  type ReaderSystemMachineEvent,
  type SessionView,
  type StoredSettings,
  type VisitorCheck,
} from '../../src/machines/readerSystem';

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

/** A copy asked for, its clipboard write answered (done or failed), and the confirmation's end. */
const copyLinkEvents: (CopyLinkEvent | CopyLinkDone)[] = [
  { type: 'copy.request', text: 'https://lectern.test/c/abcd1234' },
  { type: 'xstate.done.actor.copy', output: undefined },
  { type: 'xstate.error.actor.copy', error: new Error('denied') },
  { type: 'copy.confirmationDone' },
];

const highlightDecodeEvents: HighlightDecodeEvent[] = [
  { type: 'highlight.toggle' },
  { type: 'highlight.enable' },
  { type: 'decode.toggle' },
  { type: 'passage.changed', ...facts(false, false, true) },
  // The passage again, with the decoded text the primary column loaded for it, or the speech marks the player loaded.
  { type: 'passage.changed', ...facts(false, true, true) },
  { type: 'passage.changed', ...facts(true, false, true) },
  { type: 'edition.changed', editionId: 1, highlightEnabled: true, decodeEnabled: true, ...facts(false, false, true) },
  { type: 'edition.changed', editionId: 1, highlightEnabled: false, decodeEnabled: true, ...facts(false, false, true) },
  { type: 'edition.changed', editionId: 1, highlightEnabled: true, decodeEnabled: false, ...facts(false, false, false) },
  // Another primary edition: the mode starts again from the saved one.
  { type: 'edition.changed', editionId: 2, highlightEnabled: true, decodeEnabled: true, isEnglish: true },
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
  editionId: 1,
};

const levelIndicatorEvents: LevelIndicatorEvent[] = [{ type: 'indicator.shown' }, { type: 'indicator.hidden' }, { type: 'indicator.hover' }, { type: 'indicator.timeout' }];
const levelIndicatorInputs: LevelIndicatorInput[] = [{ seenBefore: false }, { seenBefore: true }];

const premiumDialogEvents: PremiumDialogEvent[] = [
  { type: 'premiumDialog.open', feature: 'Audio' },
  { type: 'premiumDialog.open', feature: 'Decode' },
  { type: 'premiumDialog.refused', feature: 'Novels' },
  { type: 'premiumDialog.close' },
  { type: 'reader.closed' },
];

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
  { type: 'listen.autoPlayChanged', autoPlay: true },
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


const offlineDownloadEvents: (OfflineDownloadEvent | OfflineDownloadReport)[] = [
  { type: 'download.start' },
  { type: 'download.progress', progress: { done: 1, total: 3, bytes: 2048 } },
  { type: 'download.finished' },
  { type: 'download.failed', failure: 'notAllowed' },
  { type: 'download.failed', failure: 'failed' },
];

/** What a column is told to show: a passage, a missing edition, nothing. */
const columnPlans = {
  passage: { kind: 'passage', key: '1:1', editionId: 1, position: 1, passageCount: 3, edition: { id: 1, audioEnabled: true, audioTotalLength: 60, language: 'en', slug: 'fixture' } },
  missing: { kind: 'missing', slug: 'fixture', version: 'v1', language: 'en', level: 'SILVER' },
  none: { kind: 'none' },
} satisfies Record<string, ColumnPlan>;
const columnPassage = (kind: 'plain' | 'license' | 'code' | 'voiced') => passage(101, 1, 1, kind);
const readerColumnEvents: (ReaderColumnEvent | ReaderColumnDone | { type: `xstate.after.${string}` })[] = [
  { type: 'column.show', plan: columnPlans.passage },
  { type: 'column.show', plan: columnPlans.missing },
  { type: 'column.show', plan: columnPlans.none },
  { type: 'column.reset' },
  { type: 'column.reload' },
  { type: 'narration.loaded', passageId: 101, url: '/audio/101.mp3', speechMarks: [{ offset: 0, time: 0 }] },
  { type: 'passage.refresh' },
  { type: 'xstate.done.actor.passage', output: columnPassage('plain') },
  { type: 'xstate.done.actor.passage', output: columnPassage('license') },
  { type: 'xstate.done.actor.passage', output: columnPassage('code') },
  { type: 'xstate.error.actor.passage', error: new PortFailure('not_found', 404, 'Passage not found') },
  { type: 'xstate.error.actor.passage', error: new PortFailure('premium_content', 403, 'Premium content') },
  { type: 'xstate.done.actor.edition', output: {} },
  { type: 'xstate.error.actor.edition', error: new PortFailure('network', 0, 'Network down') },
  { type: 'xstate.after.1500.readerColumn.loading.waiting' },
  { type: 'xstate.after.8500.readerColumn.loading.slow' },
  { type: 'xstate.after.50.readerColumn.shown' },
  { type: 'decodedText.want' },
  { type: 'xstate.done.actor.decodedText', output: '<p><span class="syllable">Once</span></p>' },
  { type: 'column.facts', plays: true, audioLocked: false },
  { type: 'column.facts', plays: false, audioLocked: true },
  { type: 'column.facts', plays: true, audioLocked: true },
  { type: 'word.say', offset: 0 },
  { type: 'word.playFrom', offset: 0 },
  { type: 'audio.listen', on: true },
  { type: 'audio.listen', on: false },
  { type: 'xstate.error.actor.decodedText', error: new PortFailure('network', 0, 'Network down') },
];




const readingSessionEvents: ReadingSessionEvent[] = [
  // The reader's world: a wide screen where two columns are chosen (a title shown with one opens the second).
  { type: 'reader.facts', access: { known: false, features: [], titleIds: null, classCode: null }, wide: true, columns: 'two-column', editionSelected: 'secondary' },
  // An address: the title shown at position 2 (paging there, or the one shown), another edition (opened by the system).
  { type: 'reader.sync', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 2 } },
  { type: 'reader.sync', request: { slug: 'fixture', primary: { language: 'es', level: 'ORIGINAL' } } },
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
  // Who reads becomes known: nobody with features (GOLD is locked, Russian greyed).
  { type: 'reader.facts', access: { known: true, features: [], titleIds: null, classCode: null }, wide: false, columns: 'one-column', editionSelected: null },
];

const roleModalEvents: (RoleModalEvent | RoleModalDone)[] = [
  { type: 'user.loaded', hasRole: false },
  { type: 'user.loaded', hasRole: true },
  { type: 'role.pick', role: 'TEACHER' },
  { type: 'role.pick', role: 'INDIVIDUAL' },
  { type: 'xstate.done.actor.role', output: {} },
  { type: 'xstate.error.actor.role', error: 'HTTP 500' },
  { type: 'role.dismiss' },
  { type: 'auth.signedOut' },
];
const roleModalInputs: RoleModalInput[] = [{ closedBefore: false }, { closedBefore: true }];

/** A roster dry run: a clean one (two staff) and one whose users.csv has a bad email on line 3. */
export const rosterReports = {
  clean: {
    dryRun: true,
    applied: false,
    counts: { add: 1, update: 1, unchanged: 0, disable: 0, skippedRoles: 2, enrollments: 4, classes: 1 },
    staff: [
      { sourcedId: 't1', email: 'ada@school.org', givenName: 'Ada', familyName: 'Lovelace', role: 'teacher', enabled: true, action: 'add' },
      { sourcedId: 'a1', email: 'grace@school.org', givenName: 'Grace', familyName: 'Hopper', role: 'admin', enabled: true, action: 'update' },
    ],
    problems: [],
  },
  broken: {
    dryRun: true,
    applied: false,
    counts: { add: 1, update: 0, unchanged: 0, disable: 0, skippedRoles: 0, enrollments: 0, classes: 0 },
    staff: [{ sourcedId: 't1', email: 'ada@school.org', givenName: 'Ada', familyName: 'Lovelace', role: 'teacher', enabled: true, action: 'add' }],
    problems: [{ file: 'users.csv', line: 3, message: "'not-an-email' is not an email address" }],
  },
} satisfies Record<string, RosterReport>;
const rosterZip = { name: 'roster.zip', body: new Blob(['PK']) };
const rosterUploadEvents: (RosterUploadEvent | RosterUploadDone)[] = [
  { type: 'roster.choose', file: rosterZip },
  { type: 'roster.apply' },
  { type: 'roster.cancel' },
  { type: 'roster.retry' },
  { type: 'xstate.done.actor.rosterCheck', output: rosterReports.clean },
  { type: 'xstate.done.actor.rosterCheck', output: rosterReports.broken },
  { type: 'xstate.error.actor.rosterCheck', error: new Error('The file is not a zip archive') },
  { type: 'xstate.done.actor.rosterApply', output: { ...rosterReports.clean, dryRun: false, applied: true } },
  { type: 'xstate.error.actor.rosterApply', error: new Error('users.csv line 3: not an email address') },
];

/** Two holders (a menu and focus), each released by name, and a release of every hold. */
const toolbarEvents: ToolbarEvent[] = [
  { type: 'toolbar.activity' },
  { type: 'toolbar.idle' },
  { type: 'toolbar.hold', by: 'font' },
  { type: 'toolbar.hold', by: 'focus' },
  { type: 'toolbar.release', by: 'font' },
  { type: 'toolbar.release', by: 'focus' },
  { type: 'toolbar.release' },
];

export const toastMessages = ['Class Code Accepted', 'Invalid Class Code', 'Failed to copy link', 'Title shown to students'];
/**
 * Four distinct messages (so the oldest gets dropped), a repeat of each, a dismissal of each shown toast, and a hold
 * and a release by each holder.
 */
const toastsEventsFor = (snapshot: { context: { toasts: { id: number }[] } }): ToastsEvent[] => [
  ...toastMessages.map((message, i): ToastsEvent => ({ type: 'toast.show', kind: i % 2 ? 'error' : 'success', message })),
  ...snapshot.context.toasts.map((t): ToastsEvent => ({ type: 'toast.dismiss', id: t.id })),
  { type: 'toast.dismiss', id: 999 },
  ...(['pointer', 'focus'] as const).flatMap((by): ToastsEvent[] => [
    { type: 'toasts.hold', by },
    { type: 'toasts.release', by },
  ]),
];

// ---------------------------------------------------------------------------------------------------------------
// The reader system (the root machine). Its walks run it with inert children and loads (readerSystemInert), so the
// live system does only what the root does: the children's reports and the loads' answers are the walk's events.

/** A child that does nothing. */
const inertChild = (value: string) => createMachine({ initial: value, states: { [value]: {} } });
/** Never settles: its outcome is a walk event. */
const pending = <TOutput, TInput>() => fromPromise<TOutput, TInput>(() => new Promise<TOutput>(() => {}));

/**
 * A child the root follows (syncSnapshot) as a puppet: it does nothing and reports what the root already believes
 * of it, so its reports (one when it starts, one after each event the root sends it) change nothing. What such a
 * child tells the root in the walk is the walk's own `xstate.snapshot.*` events, as in the pure model.
 */
function puppet(read: (context: ReaderSystemContext) => { value: string; context?: object }): ActorLogic<any, any, any> {
  // The root's snapshot as it is now (the parent is what sendParent reaches too).
  const mirror = (snapshot: object, scope: { self: unknown }) =>
    Object.assign(snapshot, read(((scope.self as { _parent: AnyActorRef })._parent.getSnapshot() as { context: ReaderSystemContext }).context));
  return {
    getInitialSnapshot: () => ({ status: 'active', output: undefined, error: undefined }),
    start: (snapshot, scope) => void mirror(snapshot, scope),
    transition: (snapshot, _event, scope) => mirror({ ...snapshot }, scope),
    getPersistedSnapshot: (snapshot) => snapshot,
  };
}

/** The inert children (do-nothing machines, and puppets for the three the root follows) and loads that never settle. */
export const readerSystemInertActors = {
  session: inertChild('idle'),
  column: inertChild('idle'),
  player: inertChild('idle'),
  highlightDecode: inertChild('idle'),
  access: inertChild('idle'),
  roleModal: inertChild('idle'),
  toasts: inertChild('idle'),
  copyLink: inertChild('idle'),
  levelIndicator: inertChild('idle'),
  premiumDialog: inertChild('closed'),
  toolbar: inertChild('idle'),
  wordAudio: inertChild('idle'),
  listenFlow: inertChild('idle'),
  loadPublication: pending<Publication, { slug: string; version?: string }>(),
  loadDecodedText: pending<string, NarrationInput>(),
};
export const readerSystemInert = readerSystemMachine.provide({ actors: readerSystemInertActors as never });

/** Stored settings: every default. */
export const defaultSettings = Object.fromEntries(ENGINE_SETTINGS.map((name) => [name, SETTINGS[name].default])) as StoredSettings;
const savedAudio: AudioSettings = { audioControlState: 'paused', autoPlay: true, currentTime: 12, editionSelected: 'secondary', highlight: true, playbackSpeed: { '12': 1.25 } };
/** No saved audio settings; saved audio settings (and a stored position); a stored class code whose features open the title. */
export const readerSystemInputs: ReaderSystemInput[] = [
  { settings: defaultSettings },
  {
    settings: {
      ...defaultSettings,
      audioSettings: savedAudio,
      lastPassages: {
        voiced: { language: 'en', level: 'ORIGINAL', position: 2, publicationSlug: 'voiced', publicationVersion: 'v1', secondaryLanguage: 'es', secondaryLevel: 'ORIGINAL' },
      },
    },
  },
  { settings: { ...defaultSettings, groupCode: 'STORED01', features: ['AUDIO', 'DECODE'], classTitleIds: [2] } },
];

/** The fixture title (no narration, no highlight); the same title voiced (every edition narrated, with highlight). */
const fixture = publication;
const voiced: Publication = {
  ...fixturePublication(),
  id: 2,
  slug: 'voiced',
  editions: [edition(11, 'en', 'GOLD', 3), edition(12, 'en', 'ORIGINAL', 4), edition(13, 'es', 'ORIGINAL', 4)].map((e) => ({ ...e, audioEnabled: true, highlightModeEnabled: true })),
};
voiced.englishEditions = voiced.editions.filter((e) => e.language.code === 'en');

const en = { language: 'en', level: 'ORIGINAL' } as const;
const es = { language: 'es', level: 'ORIGINAL' } as const;
const viewOf = (p: Publication, position = 1, secondary: SessionView['secondary'] = null, primary: SessionView['primary'] = en): SessionView => ({ publication: p, primary, secondary, position });
const views = {
  fixture: viewOf(fixture),
  voiced: viewOf(voiced, 1, es),
  missing: viewOf(fixture, 1, null, { language: 'en', level: 'SILVER' }),
};

/** A passage of an edition; `audio` with speech marks, none (the narration is loaded), or a gate. */
function passage(id: number, editionId: number, position: number, kind: 'voiced' | 'plain' | 'license' | 'code'): Passage {
  return {
    id,
    editionId,
    position,
    text: '<p>Once upon a time.</p>',
    textDecoded: null,
    imageUrl: null,
    imageAlt: null,
    partName: null,
    sectionName: null,
    audio: kind === 'voiced' ? { url: `/audio/${id}.mp3`, speechMarks: [{ offset: 0, time: 0 }] } : null,
    groupCodeRequired: kind === 'code',
    licenseRequired: kind === 'license',
  };
}

const failure = {
  premium: new PortFailure('premium_content', 403, 'Premium content'),
  rateLimited: new PortFailure('rate_limited', 429, 'Too many attempts. Try again later.'),
  notFound: new PortFailure('not_found', 404, 'Passage not found'),
  network: new PortFailure('network', 0, 'Network down'),
};
const visitor = { valid: { groupCodeValid: true, features: ['AUDIO', 'DECODE'], titleIds: [2] }, invalid: { groupCodeValid: false, features: [] } };

type RootEvent = ReaderSystemMachineEvent;
const done = <T extends string>(id: T, output: unknown) => ({ type: `xstate.done.actor.${id}`, output, actorId: id }) as unknown as RootEvent;
const failed = <T extends string>(id: T, error: unknown) => ({ type: `xstate.error.actor.${id}`, error, actorId: id }) as unknown as RootEvent;
/** Access tells who reads and the features in force. */
const accessReport = (access: ReaderSystemContext['access']): RootEvent => ({ type: 'access.changed', access });

/**
 * The root's events. Its guards read only the event (a settings patch, a load's error), so every event is offered
 * in every state of its life cycle; the loads' answers are taken in the states that invoke the load.
 */
const readerSystemEvents: RootEvent[] = [
  { type: 'reader.open', request: { slug: 'voiced' }, useStoredPosition: true },
  { type: 'reader.open', request: { slug: 'fixture', position: 2 } },
  { type: 'session.reopen', request: { slug: 'fixture', primary: es } },
  { type: 'reader.close' },
  { type: 'auth.signedIn' },
  { type: 'auth.signedOut' },
  { type: 'user.loaded', hasRole: false, features: [] },
  { type: 'catalog.viewed' },
  { type: 'publication.viewed', slug: 'fixture' },
  { type: 'url.visited', url: '/fixture' },
  { type: 'listen.start', autoPlay: false, isLastPage: false, editionId: 12, position: 1, passageCount: 4, basePath: '/listen/voiced/v1/en-ORIGINAL', language: 'es' },
  { type: 'setting.write', write: { name: 'audioSettings', patch: { audioControlState: 'playing', currentTime: 3 } } },
  { type: 'setting.write', write: { name: 'audioSettings', patch: { highlight: false }, create: false } },
  { type: 'setting.write', write: { name: 'readerSettings', patch: { decodeEnabled: true } } },
  { type: 'setting.write', write: { name: 'recentLanguages', value: ['es', 'en'] } },
  { type: 'setting.write', write: { name: 'editionIndicatorSeen', value: true } },
  { type: 'column.listen', slot: 'primary' },
  { type: 'column.listen', slot: 'secondary' },
  { type: 'column.playFrom', slot: 'primary', from: { passageId: 101, seconds: 0.4 } },
  { type: 'column.playFrom', slot: 'secondary', from: null },
  { type: 'settings.reader', patch: { fontSize: 'large' } },
  { type: 'settings.reader', patch: { columns: 'one-column' } },
  { type: 'settings.reader', patch: { columns: 'two-column' } },
  { type: 'viewport.changed', wide: true },
  { type: 'session.savePosition', view: views.fixture },
  { type: 'session.syncAddress', view: views.voiced },
  { type: 'session.leave' },
  { type: 'session.viewedPassage', view: views.fixture },
  { type: 'edition.reload' },
  { type: 'code.removeFromAddress' },
  accessReport({ known: true, features: [], titleIds: null, classCode: null }),
  accessReport({ known: true, features: ['AUDIO', 'DECODE'], titleIds: [2], classCode: 'ABCD1234' }),
  { type: 'analytics.track', event: 'Opened Audio Player' },
];

/** The root's life cycle state (closed, opening, open.reading, open.refreshing, failed). */
const lifeOf = (value: unknown) => JSON.stringify(value);

/** The walk's events in a state: every root event, and the title load's answers where it is under way. */
function readerSystemEventsFor(snapshot: { context: ReaderSystemContext; value: unknown }): RootEvent[] {
  const life = lifeOf(snapshot.value);
  const loading = life === '"opening"' || life.includes('refreshing');
  return loading ? [...readerSystemEvents, done('publication', fixture), failed('publication', failure.notFound), failed('publication', failure.premium)] : readerSystemEvents;
}

/** What the walk tells states apart by: the life cycle (no guard of the root reads its context). */
const readerSystemState = (s: { value: unknown }) => lifeOf(s.value);

// ---------------------------------------------------------------------------------------------------------------
// Access. Its class code is a puppet that reports what access already believes of it (so its reports change
// nothing), and its visitor checks never settle: the class code's moves and the checks' answers are walk events.

/** A class code that does nothing and reports what access believes of it. */
const classCodePuppet: ActorLogic<any, any, any> = {
  getInitialSnapshot: () => ({ status: 'active', output: undefined, error: undefined }),
  start: (snapshot, scope) => void mirrorCode(snapshot, scope),
  transition: (snapshot, _event, scope) => mirrorCode({ ...snapshot }, scope),
  getPersistedSnapshot: (snapshot) => snapshot,
};
function mirrorCode(snapshot: object, scope: { self: unknown }) {
  const { code } = ((scope.self as { _parent: AnyActorRef })._parent.getSnapshot() as { context: AccessContext }).context;
  return Object.assign(snapshot, { value: code.active ? 'active' : 'none', context: { code: code.value, lastCheckInvalid: code.invalid } });
}
export const accessInert = accessMachine.provide({ actors: { classCode: classCodePuppet as never, checkVisitor: pending<VisitorCheck, { code: string }>() as never } });

type AccessWalkEvent = AccessMachineEvent | { type: `xstate.${string}`; [key: string]: unknown };
const classCodeReport = (value: 'active' | 'none', code: string | null, lastCheckInvalid: boolean): AccessWalkEvent => ({
  type: 'xstate.snapshot.classCode',
  snapshot: { value, context: { code, lastCheckInvalid } },
});
const accessEvents: AccessWalkEvent[] = [
  { type: 'user.loaded', features: ['AUDIO'] },
  { type: 'user.loaded' },
  { type: 'user.features', features: null },
  { type: 'user.features', features: ['LEVELS'] },
  { type: 'auth.signedOut' },
  { type: 'auth.signedIn' },
  { type: 'code.removeFromAddress' },
  { type: 'code.store', code: 'ABCD1234' },
  { type: 'code.clear' },
  { type: 'visitor.verify', code: 'ABCD1234' },
  ...([done('visitor.verify', visitor.valid), done('visitor.verify', visitor.invalid), failed('visitor.verify', failure.rateLimited)] as unknown as AccessWalkEvent[]),
  ...([done('visitor.recheck', visitor.valid), done('visitor.recheck', visitor.invalid), failed('visitor.recheck', failure.network)] as unknown as AccessWalkEvent[]),
  // The class code moved: a new code accepted, its last check failed, cleared.
  classCodeReport('active', 'ABCD1234', false),
  classCodeReport('active', 'ABCD1234', true),
  classCodeReport('none', null, false),
];
const accessInputs: AccessInput[] = [
  { storedCode: null, features: [], classTitleIds: null },
  { storedCode: 'STORED01', features: ['AUDIO', 'DECODE'], classTitleIds: [2] },
];

/** Words of 'Once upon a time' (src/machines/wordAudio): ready narration, narration to wait for, and none. */
const wordTarget = { text: 'Once upon a time', locale: 'en', offset: 5 };
const wordMarks = [{ offset: 0, time: 0 }, { offset: 5, time: 400 }, { offset: 10, time: 900 }, { offset: 12, time: 1100 }];
export const wordRequests = {
  ready: { slot: 'primary', target: wordTarget, narration: { url: '/a/1.mp3', speechMarks: wordMarks, duration: 2 }, load: null },
  waits: { slot: 'secondary', target: wordTarget, narration: null, load: { passageId: 7, editionId: 3, position: 1 } },
  none: { slot: 'primary', target: wordTarget, narration: null, load: null },
} satisfies Record<string, WordRequest>;
const wordAudioEvents: (WordAudioEvent | WordAudioDone)[] = [
  { type: 'wordAudio.say', request: wordRequests.ready },
  { type: 'wordAudio.say', request: wordRequests.waits },
  { type: 'wordAudio.say', request: wordRequests.none },
  { type: 'wordAudio.cancel' },
  { type: 'wordAudio.waitOver' },
  { type: 'xstate.done.actor.wordNarration', output: { url: '/a/7.mp3', speechMarks: wordMarks, duration: 2 } },
  { type: 'xstate.done.actor.wordNarration', output: { url: '/a/7.mp3', speechMarks: [], duration: 0 } },
  { type: 'xstate.error.actor.wordNarration', error: new Error('network') },
  { type: 'xstate.done.actor.wordClip', output: undefined },
  { type: 'xstate.error.actor.wordClip', error: new Error('refused') },
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
/** The player's tracks: a voiced passage without speech marks, another page, a gated passage, an edition without narration, none. */
const playerPassage = (id: number, kind: 'voiced' | 'plain' | 'license'): Passage => ({
  ...fixturePassage(12, id, kind === 'license' ? 'licenseRequired' : null),
  id,
  audio: kind === 'voiced' ? { url: `/audio/${id}.mp3`, speechMarks: [{ offset: 0, time: 0 }] } : null,
});
const voicedEdition = { id: 12, audioEnabled: true, audioTotalLength: 600 };
export const playerTracks = {
  first: { slot: 'primary', passage: playerPassage(1, 'plain'), edition: voicedEdition },
  next: { slot: 'primary', passage: playerPassage(2, 'voiced'), edition: voicedEdition },
  gated: { slot: 'primary', passage: playerPassage(3, 'license'), edition: voicedEdition },
  silent: { slot: 'secondary', passage: playerPassage(4, 'plain'), edition: { ...voicedEdition, id: 13, audioEnabled: false } },
  none: { slot: 'primary', passage: null, edition: null },
} satisfies Record<string, PlayerTrack>;
type PlayerWalkEvent = PlayerEvent | { type: `xstate.${string}`; [key: string]: unknown };
const playerEvents: PlayerWalkEvent[] = [
  { type: 'audio.open' },
  { type: 'audio.close' },
  { type: 'audio.pause' },
  { type: 'audio.play' },
  { type: 'audio.toggle' },
  { type: 'audio.seek', seconds: 5 },
  { type: 'audio.speed', speed: 1.5 },
  { type: 'audio.speed', speed: 7 },
  ...[playerTracks.first, playerTracks.next, playerTracks.none, playerTracks.gated].map((track): PlayerWalkEvent => ({ type: 'player.track', track })),
  { type: 'player.listen' },
  { type: 'player.playFrom', at: { passageId: 2, seconds: 0.4 } },
  { type: 'player.leave' },
  { type: 'narration.wantMarks' },
  { type: 'word.hold' },
  { type: 'word.release' },
  { type: 'address.speeds', param: '12:0.75' },
  { type: 'address.speeds', param: null },
  { type: 'playback.time', time: 3.5, duration: 20 },
  { type: 'playback.ended' },
  { type: 'playback.refused' },
  done('narration', { url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 0 }], duration: 20 }) as unknown as PlayerWalkEvent,
  // The head of a narration still being made: it plays while the whole is loaded.
  done('narration', { url: '/audio/head-1.mp3', speechMarks: [{ offset: 0, time: 0 }], duration: 3, seam: 2.5 }) as unknown as PlayerWalkEvent,
  failed('narration', failure.network) as unknown as PlayerWalkEvent,
];
const playerInputs: PlayerInput[] = [{ hasSavedSettings: true, speeds: { '12': 1.25 } }, { hasSavedSettings: false, speeds: {} }];
/** What the player's walk tells states apart by: the states, the passage that plays, what is known of its narration (a head or whole), the audio port, a pending seek, an ask for marks. */
function playerState(s: { value: unknown; context: PlayerContext }): string {
  const c = s.context;
  const id = c.track.passage?.id ?? null;
  const known = id === null ? undefined : c.narration[id];
  const narration = known?.status === 'ready' && known.seam !== undefined ? 'head' : (known?.status ?? null);
  return JSON.stringify([s.value, id, c.track.edition?.audioEnabled ?? null, narration, c.loadedKey, c.pendingSeek !== null, c.marksFor === id]);
}
/** The player's walk: its loads never settle (their answers are walk events) and its playback does nothing. */
export const playerInert = playerMachine.provide({
  actors: { loadNarration: pending<Narration, NarrationInput>() as never, playback: fromCallback(() => () => {}) as never },
});

export const MODELS = {
  access: {
    machine: accessInert,
    events: accessEvents,
    inputs: accessInputs,
    // What the guards read: the regions' states and the class code (the user and the visitor features only feed the facts told).
    serializeState: (s: { value: unknown; context: AccessContext }) => JSON.stringify([s.value, s.context.code]),
  },
  classCode: { machine: classCodeMachine, events: classCodeEvents, inputs: classCodeInputs },
  copyLink: {
    // The clipboard write never settles on its own in the walks: its answers are sample events.
    machine: copyLinkMachine.provide({ actors: { copyText: pending<unknown, { text: string }>() } }),
    events: copyLinkEvents,
    inputs: [undefined],
  },
  highlightDecode: {
    machine: highlightDecodeMachine,
    events: highlightDecodeEvents,
    inputs: [highlightDecodeBase, { ...highlightDecodeBase, savedMode: 'highlight' }, { ...highlightDecodeBase, savedMode: 'decode' }] as HighlightDecodeInput[],
    serializeState: (s: { value: unknown; context: HighlightDecodeInput }) => JSON.stringify([s.value, s.context]),
    maxStates: 5000,
  },
  levelIndicator: { machine: levelIndicatorMachine, events: levelIndicatorEvents, inputs: levelIndicatorInputs },
  premiumDialog: { machine: premiumDialogMachine, events: premiumDialogEvents, inputs: [undefined], serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]) },
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
  // The download actor is the default one, which does nothing: its reports are sample events.
  offlineDownload: { machine: offlineDownloadMachine, events: offlineDownloadEvents, inputs: [{ passageCount: 3 }], serializeState: byValue },
  readerColumn: {
    // The passage load, the edition's creation and the decoded text never settle on their own in the walks: their answers are sample events.
    machine: readerColumnMachine.provide({
      actors: { loadPassage: pending<Passage, never>() as never, createEdition: pending<unknown, never>() as never, loadDecodedText: pending<string, never>() as never },
    }),
    events: readerColumnEvents,
    inputs: [{ slot: 'primary' }] as ReaderColumnInput[],
    // What the guards read: the state, the passage shown (by kind, and whether it has its decoded text), the editions created in this attempt, and the system's facts.
    serializeState: (s: { value: unknown; context: { passage: Passage | null; attempts: string[]; request: unknown; plays: boolean; audioLocked: boolean } }) =>
      JSON.stringify([s.value, s.context.passage?.audio ? 'voiced' : s.context.passage ? 'plain' : null, s.context.passage?.textDecoded != null, s.context.attempts, s.context.request, s.context.plays, s.context.audioLocked]),
    maxStates: 8000,
  },
  player: { machine: playerInert, events: playerEvents, inputs: playerInputs, serializeState: playerState, maxStates: 10_000 },
  readingSession: {
    machine: readingSessionMachine,
    events: readingSessionEvents,
    inputs: [{}],
    // What the guards read: the state, the editions in view, the position, a title open and whether who reads is known.
    serializeState: (s: { value: unknown; context: ReadingSessionContext }) =>
      JSON.stringify([s.value, s.context.primary, s.context.secondary, s.context.position, !!s.context.publication, s.context.facts]),
    maxStates: 5000,
  },
  roleModal: {
    // The role update never settles on its own in the walks: its answers are sample events.
    machine: roleModalMachine.provide({ actors: { updateRole: pending<unknown, { role: UserRole }>() } }),
    events: roleModalEvents,
    inputs: roleModalInputs,
  },
  rosterUpload: {
    // The check and the apply never settle on their own in the walks: their answers are sample events.
    machine: rosterUploadMachine.provide({ actors: { checkRoster: fromPromise<RosterReport, unknown>(() => new Promise(() => {})), applyRoster: fromPromise<RosterReport, unknown>(() => new Promise(() => {})) } as never }),
    events: rosterUploadEvents,
    inputs: [undefined],
    // What the guard reads: whether the reviewed dry run may be applied.
    serializeState: (s: { value: unknown; context: RosterUploadContext }) => JSON.stringify([s.value, s.context.report ? isApplicable(s.context.report) : null]),
  },
  toasts: {
    machine: toastsMachine,
    events: toastsEventsFor,
    inputs: [undefined],
    // Ids grow without end; the walk treats the same messages in the same order, with the same holders, as one state.
    serializeState: (s: { value: unknown; context: { toasts: { message: string }[]; holders: string[] } }) =>
      JSON.stringify([s.value, [...s.context.holders].sort(), s.context.toasts.map((t) => t.message)]),
    maxStates: 3000,
  },
  // What the guard reads: the holders (their order does not matter).
  toolbar: {
    machine: toolbarMachine,
    events: toolbarEvents,
    inputs: [undefined],
    serializeState: (s: { value: unknown; context: { holders: string[] } }) => JSON.stringify([s.value, [...s.context.holders].sort()]),
  },
  wordAudio: {
    // The narration load and the clip never settle on their own in the walks: their answers are sample events.
    machine: wordAudioMachine.provide({
      actors: { loadNarration: fromPromise<Narration, NarrationInput>(() => new Promise(() => {})), sayClip: fromPromise<void, unknown>(() => new Promise(() => {})) as never },
    }),
    events: wordAudioEvents,
    inputs: [undefined],
    serializeState: (s: { value: unknown; context: { resume: boolean; request: WordRequest | null } }) => JSON.stringify([s.value, s.context.resume, s.context.request?.slot ?? null]),
  },
  readerSystem: { machine: readerSystemInert, events: readerSystemEventsFor, inputs: readerSystemInputs, serializeState: readerSystemState, maxStates: 20000 },
} satisfies Record<string, MachineModel>;

