/**
 * The reader system: the root machine of the reader, the listen flow and the overlays they share (SPEC §2, §4, §5,
 * §6, §8). Its states are the reader's life cycle: closed, opening (the title loads), open (reading, or refreshing
 * after a missing edition was created) or failed. It starts the children (readerSystem.children.ts), each with its
 * id as systemId, so a view sends to the child it shows; it keeps the facts that span them (the stored settings, who
 * reads, the screen) and tells the session, which owns the view, the ones it needs. The loads are actors and the
 * effects (storage, the address, analytics) named actions, both provided by the engine from its ports.
 */
import { assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import type { TrackedEvent } from '../../domain/analytics';
import { failureMessage, failureOf } from '../../domain/failures';
import { isPremiumContentError } from '../../domain/locks';
import type { Publication } from '../../domain/schemas';
import { settingWriteOf, withSetting, type ReaderSettings, type SettingChange, type SettingWrite } from '../../domain/settings';
import type { Slot } from '../readingSession';
import { accessFactsOf, initialAccess } from '../access';
import { playerInput } from '../player/player.rules';
import { readerSystemChildren } from './readerSystem.children';
import { accessInput, closesSecondColumn, isListenLocked, listenOf, openRequest, positionsOf, readerFactsOf, readingInput, SLOTS, viewedPassageProperties } from './readerSystem.rules';
import type { ListenStart, SessionRequest, ReaderSystemContext, ReaderSystemInput, ReaderSystemMachineEvent, SessionView } from './readerSystem.types';

/** A transition's arguments, for the params of actions whose params are not inferred (those added with `extend`). */
type On<T extends ReaderSystemMachineEvent['type']> = { context: ReaderSystemContext; event: Extract<ReaderSystemMachineEvent, { type: T }> };

/** The title the reader asked for, loaded by `opening` and `open.refreshing` (GET /publications/{slug}). */
const loadTitle = { id: 'publication', src: 'loadPublication', input: ({ context }: { context: ReaderSystemContext }) => ({ slug: context.request!.slug, version: context.request!.version }) } as const;
const readerSettingsWrite = { type: 'writeSetting', params: ({ event }: On<'settings.reader'>): SettingChange => ({ name: 'readerSettings', patch: event.patch }) } as const;

const base = setup({
  types: {} as { context: ReaderSystemContext; events: ReaderSystemMachineEvent; input: ReaderSystemInput },
  actors: {
    ...readerSystemChildren,
    /** Provided by the engine: GET /publications/{slug}. */
    loadPublication: fromPromise<Publication, { slug: string; version?: string }>(() => Promise.reject(new Error('provided by the engine'))),
  },
  actions: {
    // ---- effects the engine provides ----
    /** Write (or, for null, remove) one stored setting. */
    persist: (_, _params: SettingWrite) => {},
    track: (_, _params: { event: TrackedEvent; properties?: Record<string, unknown> }) => {},
    /** Put the view's canonical reader path in the address (none while nothing is open), keeping its query string. */
    showReaderPath: (_, _params: { view: SessionView }) => {},
    /** Read the address's playbackSpeed parameter and tell the player ('address.speeds'). */
    readAddressSpeeds: () => {},
    /** Replace the address with the reader's library: the Classroom Library with a class code, else the Free Library. */
    leaveToCatalog: (_, _params: { classroom: boolean }) => {},
    /** Drop ?groupCode= from the address. */
    removeCodeFromAddress: () => {},

    /** The title loaded: the session shows it; or it could not be, and the session hears why. */
    tellLoaded: sendTo('session', (_, params: { output: Publication }) => ({ type: 'publication.loaded', publication: params.output })),
    tellLoadFailed: sendTo('session', (_, params: { error: unknown }) => ({ type: 'publication.failed', status: failureOf(params.error).status, message: failureMessage(params.error) })),
  },
  guards: {
    isPremiumContent: (_, params: { error: unknown }) => isPremiumContentError(params.error),
    closesSecondColumn: (_, params: { patch: Partial<ReaderSettings> }) => closesSecondColumn(params.patch),
  },
});

// Actions that enqueue other named actions are added in layers (`extend`), each typed against the one before.
const withEffects = base.extend({
  actions: {
    /**
     * The facts down: the session hears who reads, the screen, the columns chosen and the column chosen to play (it
     * keeps only a change, and tells the columns and the reading mode what follows for the view it shows).
     */
    tellFacts: sendTo('session', ({ context }) => ({ type: 'reader.facts', ...readerFactsOf(context) })),
    /** Nothing is open any more: no passages, no dialog opened in the reader, no word being said. */
    closeReader: base.createAction(enqueueActions(({ enqueue }) => {
      for (const slot of SLOTS) enqueue.sendTo(`column.${slot}`, { type: 'column.reset' });
      enqueue.sendTo('premiumDialog', { type: 'reader.closed' });
      enqueue.sendTo('session', { type: 'session.close' });
      enqueue.sendTo('wordAudio', { type: 'wordAudio.cancel' });
    })),
    /** The children, each reachable by its id as systemId (engine.getChild): the views send to the one they show. */
    startChildren: base.createAction(enqueueActions(({ context, enqueue }) => {
      enqueue.spawnChild('session', { id: 'session', systemId: 'session', input: { recentLanguages: context.settings.recentLanguages } });
      for (const slot of SLOTS) enqueue.spawnChild('column', { id: `column.${slot}`, systemId: `column.${slot}`, input: { slot } });
      enqueue.spawnChild('player', { id: 'player', systemId: 'player', input: playerInput(context.settings.audioSettings) });
      enqueue.spawnChild('highlightDecode', { id: 'highlightDecode', systemId: 'highlightDecode', input: readingInput(context) });
      enqueue.spawnChild('access', { id: 'access', systemId: 'access', input: accessInput(context.settings) });
      enqueue.spawnChild('roleModal', { id: 'roleModal', systemId: 'roleModal', input: { closedBefore: context.settings.roleModalClosed } });
      enqueue.spawnChild('levelIndicator', { id: 'levelIndicator', systemId: 'levelIndicator', input: { seenBefore: context.settings.editionIndicatorSeen } });
      for (const id of ['toasts', 'copyLink', 'premiumDialog', 'toolbar', 'wordAudio'] as const) enqueue.spawnChild(id, { id, systemId: id });
    })),
    /** Apply a change to the stored settings and persist the value it makes. */
    writeSetting: base.createAction(enqueueActions(({ context, enqueue }, rawParams) => {
      const write = settingWriteOf(context.settings, rawParams as SettingChange);
      enqueue.assign({ settings: withSetting(context.settings, write) });
      enqueue({ type: 'persist', params: write });
    })),
    /** The listen page opens an edition: a listen flow for it, its audio locked or not for who reads. */
    startListenFlow: base.createAction(enqueueActions(({ context, enqueue }, rawParams) => {
      const { type: _type, ...start } = rawParams as Extract<ReaderSystemMachineEvent, { type: 'listen.start' }>;
      const listen = listenOf(start);
      enqueue.stopChild('listen');
      enqueue.assign({ listen });
      enqueue.sendTo('premiumDialog', { type: 'premiumDialog.close' });
      enqueue.spawnChild('listenFlow', { id: 'listen', systemId: 'listen', input: { ...(start satisfies ListenStart), audioLocked: isListenLocked(context, listen.language) } });
    })),
    /** Open what the reader asks for (the stored position wins when asked for and its editions exist): `opening` loads it. */
    openReader: base.createAction(enqueueActions(({ context, enqueue }, rawParams) => {
      const params = rawParams as { request: SessionRequest; useStoredPosition?: boolean };
      const request = openRequest(params.request, params.useStoredPosition, context.settings.lastPassages);
      enqueue('readAddressSpeeds');
      for (const slot of SLOTS) enqueue.sendTo(`column.${slot}`, { type: 'column.reset' });
      enqueue.assign({ request });
      enqueue.sendTo('session', { type: 'session.open', request });
    })),
  },
});

const withFlows = withEffects.extend({
  actions: {
    /** Who reads changed: the session (and through it the locks and decode) and the listen flow's audio lock follow, and a column that shows a gate asks again. */
    applyFeatures: withEffects.createAction(enqueueActions(({ context: before, enqueue }, rawParams) => {
      const context = { ...before, access: (rawParams as Pick<ReaderSystemContext, 'access'>).access };
      enqueue.assign({ access: context.access });
      enqueue('tellFacts');
      if (context.listen) enqueue.sendTo('listen', { type: 'listen.locked', locked: isListenLocked(context, context.listen.language) });
      for (const slot of SLOTS) enqueue.sendTo(`column.${slot}`, { type: 'column.reload' });
    })),
    /**
     * A column's Listen turned on (or 'Play from here'): that column plays and is read along with highlight. The
     * player hears what plays (from the column) before the transition asks it to play.
     */
    listenTo: withEffects.createAction(enqueueActions(({ enqueue }, rawParams) => {
      enqueue({ type: 'writeSetting', params: { name: 'audioSettings', patch: { editionSelected: (rawParams as { slot: Slot }).slot } } });
      enqueue('tellFacts');
      enqueue.sendTo('highlightDecode', { type: 'highlight.enable' });
    })),
  },
});

export const readerSystemMachine = withFlows.createMachine({
  id: 'readerSystem',
  initial: 'closed',
  context: ({ input }) => ({ settings: input.settings, access: accessFactsOf(initialAccess(accessInput(input.settings))), request: null, viewport: { wide: false }, listen: null }),
  entry: ['startChildren', 'tellFacts'],
  on: {
    // ---- the life cycle ----
    'reader.open': { target: '.opening', actions: { type: 'openReader', params: ({ event }: On<'reader.open'>) => event } },
    // The session was sent an address it does not show (another title or edition): open it.
    'session.reopen': { target: '.opening', actions: { type: 'openReader', params: ({ event }: On<'session.reopen'>) => event } },
    // Leaving the reader stops its audio: a playing player stays open, paused, for the next reader.
    'reader.close': { target: '.closed', actions: [sendTo('player', { type: 'player.leave' }), 'closeReader'] },

    // ---- what the views tell the system ----
    'listen.start': { actions: { type: 'startListenFlow', params: ({ event }: On<'listen.start'>) => event } },
    'auth.signedIn': { actions: [{ type: 'track', params: { event: 'Signed In' } }, sendTo('access', { type: 'auth.signedIn' })] },
    'auth.signedOut': { actions: [{ type: 'track', params: { event: 'Signed Out' } }, sendTo('access', { type: 'auth.signedOut' }), sendTo('roleModal', { type: 'auth.signedOut' })] },
    'user.loaded': { actions: [sendTo('access', ({ event }) => ({ type: 'user.loaded', features: event.features })), sendTo('roleModal', ({ event }) => ({ type: 'user.loaded', hasRole: event.hasRole }))] },
    'catalog.viewed': { actions: { type: 'track', params: { event: 'Viewed Catalog' } } },
    'publication.viewed': { actions: { type: 'track', params: ({ event }) => ({ event: 'Viewed Novel', properties: { slug: event.slug } }) } },
    'url.visited': { actions: { type: 'track', params: ({ event }) => ({ event: 'Visited URL', properties: { url: event.url } }) } },
    'settings.reader': [
      // Choosing one column closes the second (choosing two has the session open it: 'columns.wanted').
      { guard: { type: 'closesSecondColumn', params: ({ event }) => event }, actions: [readerSettingsWrite, 'tellFacts', sendTo('session', { type: 'secondary.clear' })] },
      { actions: [readerSettingsWrite, 'tellFacts'] },
    ],
    'viewport.changed': { actions: [assign({ viewport: ({ event }) => ({ wide: event.wide }) }), 'tellFacts'] },

    // ---- what the children tell the system ----
    'session.savePosition': { actions: { type: 'writeSetting', params: ({ event }: On<'session.savePosition'>) => ({ name: 'lastPassages', patch: positionsOf(event.view) }) } },
    'session.syncAddress': { actions: { type: 'showReaderPath', params: ({ event }) => event } },
    'session.leave': { actions: { type: 'leaveToCatalog', params: ({ context }) => ({ classroom: context.access.classCode !== null }) } },
    'session.viewedPassage': { actions: { type: 'track', params: ({ event }) => ({ event: 'Viewed Passage', properties: viewedPassageProperties(event.view) }) } },
    // A column's Listen turned on, or 'Play from here' in its word mode (the column checked its audio gate).
    'column.listen': { actions: [{ type: 'listenTo', params: ({ event }: On<'column.listen'>) => event }, sendTo('player', { type: 'player.listen' })] },
    'column.playFrom': { actions: [{ type: 'listenTo', params: ({ event }: On<'column.playFrom'>) => event }, sendTo('player', ({ event }) => ({ type: 'player.playFrom', at: event.from }))] },
    'code.removeFromAddress': { actions: 'removeCodeFromAddress' },
    // Access tells who reads and the features in force; the session hears them with the other facts.
    'access.changed': { actions: { type: 'applyFeatures', params: ({ event }: On<'access.changed'>) => event } },
    'setting.write': { actions: { type: 'writeSetting', params: ({ event }: On<'setting.write'>) => event.write } },
    'analytics.track': { actions: { type: 'track', params: ({ event }) => ({ event: event.event as TrackedEvent, properties: event.properties }) } },
  },
  states: {
    closed: { meta: { description: 'No reader is open.' } },
    opening: {
      meta: { description: 'The title asked for is loaded (GET /publications/{slug}); the session hears the outcome.' },
      invoke: {
        ...loadTitle,
        onDone: { target: 'open', actions: { type: 'tellLoaded', params: ({ event }: { event: { output: Publication } }) => event } },
        onError: [
          // A premium title the reader may not open: one clear answer, 'Unlock Premium Novels' over their library (docs/decisions.md).
          { guard: { type: 'isPremiumContent', params: ({ event }) => event }, target: 'failed', actions: [sendTo('premiumDialog', { type: 'premiumDialog.refused', feature: 'Novels' }), { type: 'tellLoadFailed', params: ({ event }) => event }] },
          { target: 'failed', actions: { type: 'tellLoadFailed', params: ({ event }) => event } },
        ],
      },
    },
    open: {
      meta: { description: 'The title is open: the session shows its passages.' },
      initial: 'reading',
      states: {
        reading: { on: { 'edition.reload': { target: 'refreshing', actions: sendTo('session', { type: 'publication.reload' }) } } },
        refreshing: {
          meta: { description: 'A column created a missing edition: the title is loaded again, its passages stay shown.' },
          invoke: {
            ...loadTitle,
            onDone: { target: 'reading', actions: { type: 'tellLoaded', params: ({ event }: { event: { output: Publication } }) => event } },
            onError: { target: 'reading', actions: { type: 'tellLoadFailed', params: ({ event }) => event } },
          },
        },
      },
    },
    failed: { meta: { description: 'The title could not be opened: the session leaves for the catalog.' } },
  },
});
