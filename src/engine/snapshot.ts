/**
 * The engine's snapshot: one read-only object composed from the reader system and its children, for views and
 * other front ends. It is rebuilt only when an actor's snapshot changed, and parts that did not change keep their
 * identity, so selectors with shallow equality re-render nothing.
 */
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { ColumnLocks } from '../domain/locks';
import { narrationVoiceOfUrl } from '../domain/narrationVoice';
import type { PlaybackSpeed } from '../domain/playbackSpeed';
import type { Passage } from '../domain/schemas';
import type { ReaderSettings } from '../domain/settings';
import type { accessMachine } from '../machines/access';
import type { classCodeMachine } from '../machines/classCode';
import type { copyLinkMachine } from '../machines/copyLink';
import type { premiumDialogMachine } from '../machines/premiumDialog';
import type { highlightDecodeMachine, ReadingMode } from '../machines/highlightDecode';
import type { levelIndicatorMachine } from '../machines/levelIndicator';
import type { listenAudioMachine } from '../machines/listenAudio';
import { listenPlayerOf, type listenFlowMachine, type ListenPlayer } from '../machines/listenFlow';
import { playerPlan, playerState, type playerMachine } from '../machines/player';
import type { readerColumnMachine } from '../machines/readerColumn';
import type { readerSystemMachine } from '../machines/readerSystem';
import type { readingSessionMachine, Slot } from '../machines/readingSession';
import { columnDisplay, columnsOf, featuresOf, locksOf, NO_FACTS, type FollowedColumn, type SessionFacts } from '../machines/readingSession/readingSession.rules';

/** Before the children start: nothing shown, nothing known. */
const NO_SESSION: SessionFacts = { publication: null, primary: null, secondary: null, position: 1, facts: NO_FACTS };
import type { roleModalMachine } from '../machines/roleModal';
import type { toastsMachine } from '../machines/toasts';
import type { toolbarMachine } from '../machines/toolbar';
import { wordAudioStatus, type WordAudioView, type wordAudioMachine } from '../machines/wordAudio';

export interface SlotView {
  /** The passage being shown in this column, or null while none is loaded. */
  passage: Passage | null;
  /** The column's machine (src/machines/readerColumn): its load, its gate, its missing edition. */
  column: SnapshotFrom<typeof readerColumnMachine>;
  /** The column's locks for the features in force (src/domain/locks.ts): locked levels, greyed languages, audio, premium title. */
  locks: ColumnLocks;
  /**
   * How the column shows its passage: decoded (with the legend), with its words lit as the audio plays, or
   * following the other column's narration (two columns: it lights the sentence or paragraph that matches).
   */
  display: { decoded: boolean; highlight: boolean; follows: FollowedColumn | null };
  /** The player is open and plays this column's edition (its Listen toggle is on). */
  listening: boolean;
}

export type ReaderAudioStatus = 'none' | 'loading' | 'ready' | 'failed';

/** What the reader's player shows. */
export interface ReaderPlayerView {
  /** The column whose edition the player plays. */
  slot: Slot;
  editionId: number | null;
  passageId: number | null;
  /** The passage's narration: none (no audio for this edition), being fetched, ready, or failed (logged). */
  status: ReaderAudioStatus;
  /** Seconds played, to the whole second the clock shows. Use engine.getAudioTime() for the exact time. */
  currentTime: number;
  /** The passage's length in seconds; 0 until known. */
  duration: number;
  speed: PlaybackSpeed;
  /** The edition's total narration, in seconds (edition.audioTotalLength). */
  totalLength: number;
  /** The voice of the passage's ready narration ('flite-slt', 'espeak-en-us', …; src/domain/narrationVoice.ts), or null. */
  voice: string | null;
}

/**
 * The machine of each child of the reader system, by its systemId: the engine's children (the actors a view sends
 * to) and the snapshots the engine's snapshot shows are both typed from this one table.
 */
export interface ReaderChildMachines {
  /** The reading session: paging and the second column. */
  session: typeof readingSessionMachine;
  'column.primary': typeof readerColumnMachine;
  'column.secondary': typeof readerColumnMachine;
  /** Highlight and decode; started again for a new primary edition (the systemId then names the new one). */
  highlightDecode: typeof highlightDecodeMachine;
  access: typeof accessMachine;
  /** The reader's player (src/machines/player): closed or open (paused, playing, held by a word), its narration and audio port. */
  player: typeof playerMachine;
  /** The class code (access's child). */
  classCode: typeof classCodeMachine;
  roleModal: typeof roleModalMachine;
  toasts: typeof toastsMachine;
  copyLink: typeof copyLinkMachine;
  /** The 'Unlock Premium {feature}' dialog. */
  premiumDialog: typeof premiumDialogMachine;
  levelIndicator: typeof levelIndicatorMachine;
  toolbar: typeof toolbarMachine;
  wordAudio: typeof wordAudioMachine;
  /** The listen flow, from 'listen.start' on (started again for each edition the listen page opens). */
  listen: typeof listenFlowMachine;
}

/** The children whose snapshots the engine's snapshot shows as they are, under their systemId. */
type ShownAsIs = 'session' | 'toolbar' | 'player' | 'highlightDecode' | 'classCode' | 'roleModal' | 'toasts' | 'copyLink' | 'levelIndicator';
type ChildSnapshots = { [K in ShownAsIs]: SnapshotFrom<ReaderChildMachines[K]> };

export interface ReaderEngineSnapshot extends ChildSnapshots {
  primary: SlotView;
  secondary: SlotView;
  readerPlayer: ReaderPlayerView;
  /** The listen player's state, or null before 'listen.start'. */
  listenAudio: SnapshotFrom<typeof listenAudioMachine> | null;
  /** The listen player's position and clock, or null before 'listen.start'. */
  listenPlayer: ListenPlayer | null;
  /** The features in force: the signed-in user's, else the valid class code's visitor features, else none. */
  features: string[];
  /** The 'Unlock Premium {feature}' dialog, when open. */
  premiumDialog: { feature: string } | null;
  /** The word being said in word mode (src/machines/wordAudio): waiting for its narration or speaking, and where. */
  wordAudio: WordAudioView;
  /** The reader's display settings (text size, columns, decode). */
  readerSettings: ReaderSettings;
  /** Whether two columns may show (a wide screen, no class code) and whether the second one shows. */
  columns: { allowed: boolean; showSecondary: boolean };
}

type RootSnapshot = SnapshotFrom<typeof readerSystemMachine>;

/** The children whose snapshots the engine's snapshot shows. */
const SHOWN_CHILDREN: (keyof ReaderChildMachines)[] = ['wordAudio', 'session', 'column.primary', 'column.secondary', 'toolbar', 'player', 'highlightDecode', 'access', 'roleModal', 'toasts', 'copyLink', 'premiumDialog', 'levelIndicator', 'listen'];

/** The last result of `fn`, kept while its inputs are the same objects. */
function keepWhileSame<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | null = null;
  return (...args) => {
    if (last && args.length === last.args.length && args.every((a, i) => Object.is(a, last!.args[i]))) return last.result;
    last = { args, result: fn(...args) };
    return last.result;
  };
}

/** The last value `make` gave, kept while `key` is the same. */
function keepByKey<R>(): (key: string, make: () => R) => R {
  let last: { key: string; value: R } | null = null;
  return (key, make) => {
    if (last?.key !== key) last = { key, value: make() };
    return last.value;
  };
}

const childSnapshot = <T>(root: { children: Record<string, AnyActorRef | undefined> }, id: string) => root.children[id]?.getSnapshot() as T;
/** The class code's snapshot: a child of access. */
const classCodeSnapshot = (root: RootSnapshot) => {
  const access = childSnapshot<{ children: Record<string, AnyActorRef | undefined> } | undefined>(root, 'access');
  return access ? childSnapshot<SnapshotFrom<typeof classCodeMachine>>(access, 'classCode') : undefined;
};

/** The player's view before the player has started (the system is starting its children). */
const NO_PLAYER: ReaderPlayerView = { slot: 'primary', editionId: null, passageId: null, status: 'none', currentTime: 0, duration: 0, speed: 1, totalLength: 0, voice: null };

function playerView(player: SnapshotFrom<typeof playerMachine> | undefined): ReaderPlayerView {
  if (!player) return NO_PLAYER;
  const { context } = player;
  const plan = playerPlan(context, playerState(player));
  const narration = plan.narration;
  const status: ReaderAudioStatus = !plan.enabled ? 'none' : !narration || narration.status === 'loading' ? 'loading' : narration.status;
  return {
    slot: context.track.slot,
    editionId: context.track.edition?.id ?? null,
    passageId: context.track.passage?.id ?? null,
    status,
    currentTime: plan.key ? context.currentTime : 0,
    duration: context.duration > 0 ? context.duration : narration?.status === 'ready' ? narration.duration : 0,
    speed: plan.speed as PlaybackSpeed,
    totalLength: context.track.edition?.audioTotalLength ?? 0,
    voice: narration?.status === 'ready' ? narrationVoiceOfUrl(narration.url) : null,
  };
}

/** A composer for one engine: it keeps each part while the snapshots it is made from are the same. */
export function createSnapshotComposer() {
  const slotViews = { primary: keepWhileSame(slotView), secondary: keepWhileSame(slotView) };
  const player = keepWhileSame(playerView);
  const features = keepWhileSame((facts: SessionFacts['facts'], publication: SessionFacts['publication']) => featuresOf({ facts, publication }));
  const listen = keepWhileSame((flow: SnapshotFrom<typeof listenFlowMachine> | undefined, player: SnapshotFrom<typeof listenAudioMachine> | undefined) => ({
    listenAudio: player ?? null,
    listenPlayer: flow ? listenPlayerOf(flow) : null,
  }));

  // `follows` comes as its two parts, so an unchanged column keeps its view (keepWhileSame compares arguments).
  function slotView(
    passage: Passage | null,
    column: SlotView['column'],
    locks: ColumnLocks,
    decoded: boolean,
    highlight: boolean,
    followsSlot: Slot | null,
    followsLanguage: string | null,
    listening: boolean,
  ): SlotView {
    const follows = followsSlot && followsLanguage ? { slot: followsSlot, language: followsLanguage } : null;
    return { passage, column, locks, display: { decoded, highlight, follows }, listening };
  }
  const columns = keepWhileSame((allowed: boolean, showSecondary: boolean) => ({ allowed, showSecondary }));
  const dialog = keepWhileSame((feature: string | null) => (feature ? { feature } : null));
  const word = keepWhileSame((snapshot: SnapshotFrom<typeof wordAudioMachine> | undefined): WordAudioView => (snapshot ? wordAudioStatus(snapshot) : { status: 'idle', slot: null, word: null }));
  // Locks are kept while the title, the column's language and the features in force are the same (their key):
  // the same object, so a view of them re-renders only when they change.
  const keepLocks = () => keepByKey<ColumnLocks>();
  const lockMemo = { primary: keepLocks(), secondary: keepLocks() };
  const locks = (session: SessionFacts, slot: Slot, held: string[]) => {
    const choice = slot === 'primary' ? session.primary : session.secondary;
    const key = JSON.stringify([session.publication?.id, session.publication?.version, choice?.language, session.facts.access.known, held]);
    return lockMemo[slot](key, () => locksOf(session, slot));
  };

  const compose = keepWhileSame((root: RootSnapshot, ..._children: unknown[]): ReaderEngineSnapshot => {
    const { context } = root;
    const child = <T>(id: string) => childSnapshot<T>(root, id);
    // The session owns the view and the facts it was told: the columns' locks and display are read from it.
    const sessionSnapshot = child<SnapshotFrom<typeof readingSessionMachine>>('session');
    const session: SessionFacts = sessionSnapshot?.context ?? NO_SESSION;
    const held = features(session.facts, session.publication);
    const playerSnapshot = child<SnapshotFrom<typeof playerMachine> | undefined>('player');
    const playerOpen = playerSnapshot !== undefined && playerState(playerSnapshot) !== 'closed';
    const reading = child<SnapshotFrom<typeof highlightDecodeMachine> | undefined>('highlightDecode');
    const columnSnapshots = { primary: child<SlotView['column'] | undefined>('column.primary'), secondary: child<SlotView['column'] | undefined>('column.secondary') };
    const passages = { primary: columnSnapshots.primary?.context.passage ?? null, secondary: columnSnapshots.secondary?.context.passage ?? null };
    const facts = { playerOpen, mode: (reading?.value ?? 'off') as ReadingMode, passages };
    const column = (slot: Slot): SlotView => {
      const { decoded, highlight, follows } = columnDisplay(session, slot, facts);
      const snapshot = columnSnapshots[slot];
      return slotViews[slot](passages[slot], snapshot!, locks(session, slot, held), decoded, highlight, follows?.slot ?? null, follows?.language ?? null, playerOpen && playerSnapshot!.context.track.slot === slot);
    };
    const twoColumns = columnsOf(session);
    const flow = child<SnapshotFrom<typeof listenFlowMachine> | undefined>('listen');
    return {
      session: sessionSnapshot,
      primary: column('primary'),
      secondary: column('secondary'),
      toolbar: child('toolbar'),
      player: playerSnapshot!,
      readerPlayer: player(playerSnapshot),
      ...listen(flow, flow ? childSnapshot<SnapshotFrom<typeof listenAudioMachine>>(flow, 'listenAudio') : undefined),
      highlightDecode: child('highlightDecode'),
      classCode: classCodeSnapshot(root)!,
      roleModal: child('roleModal'),
      toasts: child('toasts'),
      copyLink: child('copyLink'),
      levelIndicator: child('levelIndicator'),
      wordAudio: word(child('wordAudio')),
      features: held,
      premiumDialog: dialog(child<SnapshotFrom<typeof premiumDialogMachine> | undefined>('premiumDialog')?.context.feature ?? null),
      readerSettings: context.settings.readerSettings,
      columns: columns(twoColumns.allowed, twoColumns.showSecondary),
    };
  });

  /** The snapshot of a running reader system: recomposed only when the root or a child it shows has a new snapshot. */
  return (root: RootSnapshot): ReaderEngineSnapshot => {
    const listenFlow = childSnapshot<SnapshotFrom<typeof listenFlowMachine> | undefined>(root, 'listen');
    const listenPlayerSnapshot = listenFlow ? childSnapshot<unknown>(listenFlow, 'listenAudio') : undefined;
    return compose(root, ...SHOWN_CHILDREN.map((id) => childSnapshot<unknown>(root, id)), listenPlayerSnapshot, listenFlow, classCodeSnapshot(root));
  };
}
