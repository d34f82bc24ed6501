/**
 * The reader system's children: today's machines, each with its named effects bound to the system. An effect
 * that needs the system (a load, a save, the address) is sent to the root with `sendParent`, carrying what the
 * root needs, so the root never reads a child's snapshot; a toast goes straight to the toast queue, reached by its
 * systemId. Each machine keeps its own tests and diagram; this file only wires them.
 */
import { enqueueActions, sendParent, sendTo } from 'xstate';
import type { TrackedEvent } from '../../domain/analytics';
import { accessMachine } from '../access';
import { classCodeMachine } from '../classCode';
import { copyLinkMachine } from '../copyLink';
import type { PremiumFeature } from '../../domain/locks';
import { premiumDialogMachine } from '../premiumDialog';
import { highlightDecodeMachine, type HighlightDecodeEvent, type ReadingMode } from '../highlightDecode';
import { levelIndicatorMachine } from '../levelIndicator';
import { listenFlowMachine } from '../listenFlow';
import { playerMachine, type NarrationLoadedParams, type PlayerEvent } from '../player';
import { readerColumnMachine, readingFactsOf, trackOf, type ReaderColumnEvent } from '../readerColumn';
import { readingSessionMachine, type ReadingSessionContext } from '../readingSession';
import { columnFacts, columnPlan, editionFacts, hasDecodeFeature } from '../readingSession/readingSession.rules';
import { roleModalMachine } from '../roleModal';
import { toastsMachine, type ToastRequest } from '../toasts';
import { toolbarMachine } from '../toolbar';
import { wordAudioMachine } from '../wordAudio';
import { audioTrackingOf, SLOTS } from './readerSystem.rules';
import type { SessionView } from './readerSystem.types';

/** The systemId of the toast queue, which any child may reach. */
export const TOASTS_SYSTEM_ID = 'toasts';

/** The systemId of the 'Unlock Premium {feature}' dialog, which the children that offer an upgrade open. */
export const PREMIUM_DIALOG_SYSTEM_ID = 'premiumDialog';

const viewOf = (context: ReadingSessionContext): SessionView => ({
  publication: context.publication,
  primary: context.primary,
  secondary: context.secondary,
  position: context.position,
});

const session = readingSessionMachine.provide({
  actions: {
    // The view's passages: each column loads its own (or creates its missing edition); then the facts follow.
    loadPassages: enqueueActions(({ context, enqueue, system }) => {
      for (const slot of SLOTS) {
        const show: ReaderColumnEvent = { type: 'column.show', plan: columnPlan(context, slot) };
        enqueue.sendTo(system.get(`column.${slot}`), show);
      }
      enqueue('tellFacts');
    }),
    /**
     * What follows from the view and the reader's world: each column hears whether it plays and whether its audio is
     * locked (the one that plays tells the player what it shows), the reading mode what the editions allow and
     * whether DECODE is held on the title (it keeps only a change, and starts again for another primary edition).
     */
    tellFacts: enqueueActions(({ context, enqueue, system }) => {
      for (const slot of SLOTS) {
        const facts: ReaderColumnEvent = { type: 'column.facts', ...columnFacts(context, slot) };
        enqueue.sendTo(system.get(`column.${slot}`), facts);
      }
      const edition: HighlightDecodeEvent = { type: 'edition.changed', ...editionFacts(context) };
      const feature: HighlightDecodeEvent = { type: 'features.changed', hasDecodeFeature: hasDecodeFeature(context) };
      enqueue.sendTo(system.get('highlightDecode'), edition);
      enqueue.sendTo(system.get('highlightDecode'), feature);
    }),
    reopen: sendParent((_, params) => ({ type: 'session.reopen', request: params.request })),
    savePosition: sendParent(({ context }) => ({ type: 'session.savePosition', view: viewOf(context) })),
    saveRecentLanguages: sendParent(({ context }) => ({ type: 'setting.write', write: { name: 'recentLanguages', value: context.recentLanguages } })),
    syncAddress: sendParent(({ context }) => ({ type: 'session.syncAddress', view: viewOf(context) })),
    leaveToCatalog: sendParent({ type: 'session.leave' }),
    trackViewedPassage: sendParent(({ context }) => ({ type: 'session.viewedPassage', view: viewOf(context) })),
    showUpgrade: sendTo(({ system }) => system.get(PREMIUM_DIALOG_SYSTEM_ID), (_, params: { feature: PremiumFeature }) => ({ type: 'premiumDialog.open', feature: params.feature })),
  },
});

/** The systemId of the primary column, whose passage decode mode shows. */
export const PRIMARY_COLUMN_SYSTEM_ID = 'column.primary';

/** The systemId of the reader's player, which the columns, highlight and word audio tell what they need of it. */
export const PLAYER_SYSTEM_ID = 'player';

/**
 * A reader column tells the player (when it plays) and the reading mode what it shows (readerColumn.rules.ts), hands
 * a tapped word to word audio, and asks the system to leave, to fetch the title again, to play it from a word or to
 * offer the Audio upgrade.
 */
const column = readerColumnMachine.provide({
  actions: {
    tellWhatShows: enqueueActions(({ context, enqueue, system }) => {
      const track: PlayerEvent = { type: 'player.track', track: trackOf(context) };
      if (context.plays) enqueue.sendTo(system.get(PLAYER_SYSTEM_ID), track);
      const facts = readingFactsOf(context);
      const reading: HighlightDecodeEvent | null = facts && { type: 'passage.changed', ...facts };
      if (reading) enqueue.sendTo(system.get('highlightDecode'), reading);
    }),
    tellTrack: enqueueActions(({ context, enqueue, system }) => {
      const track: PlayerEvent = { type: 'player.track', track: trackOf(context) };
      if (context.plays) enqueue.sendTo(system.get(PLAYER_SYSTEM_ID), track);
    }),
    sayWord: sendTo(({ system }) => system.get('wordAudio'), (_, params) => ({ type: 'wordAudio.say', request: params.request })),
    playFrom: sendParent(({ context }, params) => ({ type: 'column.playFrom', slot: context.slot, from: params.from })),
    offerAudioUpgrade: sendTo(({ system }) => system.get(PREMIUM_DIALOG_SYSTEM_ID), () => ({ type: 'premiumDialog.open', feature: 'Audio' })),
    listen: sendParent(({ context }) => ({ type: 'column.listen', slot: context.slot })),
    closePlayer: sendTo(({ system }) => system.get(PLAYER_SYSTEM_ID), { type: 'audio.close' }),
    leaveForPremium: sendParent({ type: 'session.leave' }),
    reloadPublication: sendParent({ type: 'edition.reload' }),
  },
});

/** The player saves, tracks and tells which narration arrived through the system; its audio port is the engine's. */
const player = playerMachine.provide({
  actions: {
    save: sendParent((_, patch) => ({ type: 'setting.write', write: { name: 'audioSettings', patch } })),
    // The audio events also name the title and the position that play (readerSystem.rules.ts).
    track: sendParent(({ context }, params) => ({ type: 'analytics.track', ...audioTrackingOf(context.track, params) })),
    // The columns hear which narration arrived; the one that shows its passage keeps it and tells the system.
    tellNarration: enqueueActions(({ enqueue, system }, params: NarrationLoadedParams) => {
      for (const slot of SLOTS) enqueue.sendTo(system.get(`column.${slot}`), { type: 'narration.loaded', ...params });
    }),
  },
});

/** The reading mode saves its mode, and asks the player for speech marks and the primary column for decoded text. */
const highlightDecode = highlightDecodeMachine.provide({
  actions: {
    // The mode is saved in two settings: decode in the reader settings, highlight in the audio settings (which only
    // turning highlight on creates: saved audio settings start the player paused on the next visit).
    persistMode: enqueueActions(({ enqueue }, params: { mode: ReadingMode }) => {
      enqueue.sendParent({ type: 'setting.write', write: { name: 'readerSettings', patch: { decodeEnabled: params.mode === 'decode' } } });
      enqueue.sendParent({ type: 'setting.write', write: { name: 'audioSettings', patch: { highlight: params.mode === 'highlight' }, create: params.mode === 'highlight' } });
    }),
    requestSpeechMarks: sendTo(({ system }) => system.get(PLAYER_SYSTEM_ID), { type: 'narration.wantMarks' }),
    // The primary column shows the passage decode reads, and loads its decoded text itself.
    requestDecodedText: sendTo(({ system }) => system.get(PRIMARY_COLUMN_SYSTEM_ID), { type: 'decodedText.want' }),
    showDecodeUpgrade: sendTo(({ system }) => system.get(PREMIUM_DIALOG_SYSTEM_ID), (_, params: { feature: PremiumFeature }) => ({ type: 'premiumDialog.open', feature: params.feature })),
  },
});

/** The class code, access's child: its checks and stored code go to access (sendParent), its toasts to the queue. */
const classCode = classCodeMachine.provide({
  actions: {
    verifyClassCode: sendParent((_, params) => ({ type: 'visitor.verify', code: params.code })),
    removeCodeFromAddress: sendParent({ type: 'code.removeFromAddress' }),
    storeClassCode: sendParent((_, params) => ({ type: 'code.store', code: params.code })),
    clearStoredClassCode: sendParent({ type: 'code.clear' }),
    showToast: sendTo(({ system }) => system.get(TOASTS_SYSTEM_ID), (_, params: ToastRequest) => ({ type: 'toast.show', kind: params.kind, message: params.message })),
  },
});

/** Access: its class code is the one above; the settings it stores, the address and the features in force go to the root as facts. */
const access = accessMachine.provide({
  actors: { classCode },
  actions: {
    writeSetting: sendParent((_, params) => ({ type: 'setting.write', write: params })),
    tellAccess: sendParent((_, params) => ({ type: 'access.changed', access: params })),
    removeCodeFromAddress: sendParent({ type: 'code.removeFromAddress' }),
  },
});

/** The role modal: its closed flag is a stored setting (its role update and the failure's log are the engine's, systemIo.ts). */
const roleModal = roleModalMachine.provide({
  actions: {
    storeClosedFlag: sendParent({ type: 'setting.write', write: { name: 'roleModalClosed', value: true } }),
    resetClosedFlag: sendParent({ type: 'setting.write', write: { name: 'roleModalClosed', value: null } }),
  },
});

/** The magic link's copy: tracked by the system, toasted by the queue (its clipboard write is the engine's, systemIo.ts). */
const copyLink = copyLinkMachine.provide({
  actions: {
    trackCopiedMagicLink: sendParent({ type: 'analytics.track', event: 'Copied Magic Link' satisfies TrackedEvent }),
    showToast: sendTo(({ system }) => system.get(TOASTS_SYSTEM_ID), (_, params: ToastRequest) => ({ type: 'toast.show', kind: params.kind, message: params.message })),
  },
});

const levelIndicator = levelIndicatorMachine.provide({
  actions: { storeIndicatorSeen: sendParent({ type: 'setting.write', write: { name: 'editionIndicatorSeen', value: true } }) },
});

/** The listen flow: its Auto-play switch is one of the stored audio settings, saved and tracked (SPEC §3, §4). */
const listenFlow = listenFlowMachine.provide({
  actions: {
    saveAutoPlay: enqueueActions(({ enqueue }, params: { autoPlay: boolean }) => {
      enqueue.sendParent({ type: 'analytics.track', event: 'Changed Audio Settings' satisfies TrackedEvent, properties: { autoPlay: params.autoPlay } });
      enqueue.sendParent({ type: 'setting.write', write: { name: 'audioSettings', patch: { autoPlay: params.autoPlay } } });
    }),
  },
});

/** A tapped word holds the reader's player and lets it go after (a playing player waits for it: the player decides). */
const wordAudio = wordAudioMachine.provide({
  actions: {
    pauseReader: sendTo(({ system }) => system.get(PLAYER_SYSTEM_ID), { type: 'word.hold' }),
    resumeReader: sendTo(({ system }) => system.get(PLAYER_SYSTEM_ID), { type: 'word.release' }),
    showToast: sendTo(({ system }) => system.get(TOASTS_SYSTEM_ID), (_, params: ToastRequest) => ({ type: 'toast.show', kind: params.kind, message: params.message })),
  },
});

/** The children's logic by name, for the root's `setup({ actors })`. */
export const readerSystemChildren = {
  session,
  column,
  player,
  highlightDecode,
  access,
  roleModal,
  toasts: toastsMachine,
  copyLink,
  premiumDialog: premiumDialogMachine,
  levelIndicator,
  toolbar: toolbarMachine,
  wordAudio,
  listenFlow,
};
