/**
 * The headless reader engine: it runs every machine of the product, feeds them the outcomes of I/O done
 * through its ports, and exposes one small surface (start, send, getSnapshot, subscribe, stop). It runs in a
 * browser, in plain Node and in tests; it never touches window, document, localStorage, fetch or Date.now.
 */
import type { AnyStateMachine, SnapshotFrom } from 'xstate';
import { ApiError } from '../api/errors';
import { DEFAULT_ERROR_MESSAGE } from '../domain/constants';
import { buildReaderPath } from '../domain/readerUrl';
import { classCodeFeatures, isAudioLocked, PREMIUM_CONTENT_MESSAGE } from '../domain/access';
import type { Passage } from '../domain/schemas';
import type { LanguageCode } from '../domain/languages';
import type { Level } from '../domain/levels';
import { readingSessionMachine, editionFor, type ReadingSessionEvent, type SessionRequest, type Slot } from '../machines/readingSession';
import { passageLoadingMachine } from '../machines/passageLoading';
import { toolbarMachine, type ToolbarEvent } from '../machines/toolbar';
import { readerAudioMachine, type ReaderAudioEvent } from '../machines/readerAudio';
import { listenAudioMachine, type ListenAudioEvent } from '../machines/listenAudio';
import { highlightDecodeMachine, type HighlightDecodeEvent, type HighlightDecodeInput, type ReadingMode } from '../machines/highlightDecode';
import { missingEditionMachine } from '../machines/missingEdition';
import { classCodeMachine, resolveFeatures, type ClassCodeEvent } from '../machines/classCode';
import { roleModalMachine, type RoleModalEvent } from '../machines/roleModal';
import { toastsMachine, toastTimers, type ToastsEvent } from '../machines/toasts';
import { copyLinkMachine, type CopyLinkEvent } from '../machines/copyLink';
import { levelIndicatorMachine, type LevelIndicatorEvent } from '../machines/levelIndicator';
import { hostMachine, type MachineHost } from './host';
import { createListenDriver, type ListenPlayer, type ListenStart } from './listenDriver';
import { PassageCache } from './passageCache';
import { createReaderAudioDriver, type ReaderAudioDriver, type ReaderPlayerView } from './readerAudioDriver';
import { applyPlaybackSpeedRequest, isPlaybackSpeed, parsePlaybackSpeedParam, formatPlaybackSpeedParam } from '../domain/playbackSpeed';
import type { EnginePorts, TrackedEvent, VisitorAnswer } from './ports';
import { createSettingsStore, type ReaderPosition } from './settings';
import { columnLocks, languageUpgrade, levelUpgrade, NO_LOCKS, type ColumnLocks, type PremiumFeature } from './locks';

/** Events the engine itself understands (not addressed to one machine). */
export type EngineEvent =
  /** Open the reader. With `useStoredPosition`, the stored position of this publication wins when its editions still exist. */
  | { type: 'reader.open'; request: SessionRequest; useStoredPosition?: boolean }
  /** The address changed: page within the open publication when only the position moved, else open it. */
  | { type: 'reader.sync'; request: SessionRequest }
  | { type: 'reader.close' }
  | { type: 'passage.refresh'; slot: Slot }
  /** Open the 'Unlock Premium {feature}' dialog. */
  | { type: 'premiumDialog.open'; feature: PremiumFeature }
  | { type: 'premiumDialog.close' }
  /** Ask to copy text; the clipboard port answers and the copy-link machine shows the outcome. */
  | { type: 'copy.request'; text: string }
  | { type: 'auth.signedIn' }
  | { type: 'auth.signedOut' }
  /** The signed-in user arrived (features from their plan). */
  | { type: 'user.loaded'; hasRole: boolean; features?: string[] }
  /**
   * The current user as far as gating goes: their plan's features, or null when nobody is signed in (then the
   * visitor check's features apply, else none). Views that gate (reader, listen, teaser) send it; the role
   * modal is not touched.
   */
  | { type: 'user.features'; features: string[] | null }
  | { type: 'catalog.viewed' }
  | { type: 'publication.viewed'; slug: string }
  | { type: 'url.visited'; url: string }
  /** A new playback speed (for the edition the player plays) or auto-play; saved, applied and tracked. */
  | { type: 'audio.settingsChanged'; playbackSpeed?: number; autoPlay?: boolean }
  /** A column's Listen toggle: play that column's edition (opening the player) with highlight, or close the player. */
  | { type: 'audio.listen'; slot: Slot; on: boolean }
  /** Seek the reader's audio, in seconds. */
  | { type: 'audio.seek'; seconds: number }
  // The listen flow (src/engine/listenDriver.ts): open an edition, follow the page, seek.
  | ({ type: 'listen.start' } & ListenStart)
  | { type: 'listen.page'; position: number }
  /** The listen flow's play control while its audio is locked: offer 'Unlock Premium Audio'. */
  | { type: 'listen.upgrade' }
  | { type: 'listen.seek'; seconds: number };

export type ReaderEngineEvent =
  | EngineEvent
  | ReadingSessionEvent
  | ToolbarEvent
  | ReaderAudioEvent
  | ListenAudioEvent
  | HighlightDecodeEvent
  | ClassCodeEvent
  | RoleModalEvent
  | ToastsEvent
  | CopyLinkEvent
  | LevelIndicatorEvent;

export interface SlotView {
  /** The passage being shown in this column, or null while none is loaded. */
  passage: Passage | null;
  loading: SnapshotFrom<typeof passageLoadingMachine>;
  missing: SnapshotFrom<typeof missingEditionMachine>;
  /** The column's locks for the features in force (src/engine/locks.ts): locked levels, greyed languages, audio, premium title. */
  locks: ColumnLocks;
}

export interface ReaderEngineSnapshot {
  session: SnapshotFrom<typeof readingSessionMachine>;
  primary: SlotView;
  secondary: SlotView;
  toolbar: SnapshotFrom<typeof toolbarMachine>;
  readerAudio: SnapshotFrom<typeof readerAudioMachine>;
  /** The reader's player: which column plays, its narration status, clocks (whole seconds), speed, total length. */
  readerPlayer: ReaderPlayerView | null;
  listenAudio: SnapshotFrom<typeof listenAudioMachine> | null;
  /** The listen player's position and clock (listenDriver), or null before 'listen.start'. */
  listenPlayer: ListenPlayer | null;
  highlightDecode: SnapshotFrom<typeof highlightDecodeMachine>;
  classCode: SnapshotFrom<typeof classCodeMachine>;
  roleModal: SnapshotFrom<typeof roleModalMachine>;
  toasts: SnapshotFrom<typeof toastsMachine>;
  copyLink: SnapshotFrom<typeof copyLinkMachine>;
  levelIndicator: SnapshotFrom<typeof levelIndicatorMachine>;
  /** The features in force: the signed-in user's, else the valid class code's visitor features, else none. */
  features: string[];
  /** The 'Unlock Premium {feature}' dialog, when open (connectPremiumDialog in src/engine/locks.ts). */
  premiumDialog: { feature: string } | null;
}

export interface ReaderEngine {
  start(): void;
  send(event: ReaderEngineEvent): void;
  getSnapshot(): ReaderEngineSnapshot;
  subscribe(listener: () => void): () => void;
  stop(): void;
  /** The reader audio's exact time in seconds, read from the audio port (for a highlight loop per animation frame). */
  getAudioTime(): number;
  /** The stored settings, for views that only read them (font size). */
  readonly settings: ReturnType<typeof createSettingsStore>;
}

const SLOTS: Slot[] = ['primary', 'secondary'];

export function createReaderEngine(ports: EnginePorts): ReaderEngine {
  const { api, clock, analytics } = ports;
  const logger = ports.logger ?? { error: () => {}, warn: () => {} };
  const settings = createSettingsStore(ports.storage, (m) => logger.warn(m));
  const cache = new PassageCache(api);
  const listeners = new Set<() => void>();
  let snapshot: ReaderEngineSnapshot | null = null;
  let started = false;
  let batching = 0;
  let dirty = false;
  let premiumDialog: { feature: string } | null = null;
  let userFeatures: string[] | null = null;
  /**
   * Whether the engine has heard who the reader is (signed in or not, 'user.features' / 'user.loaded' /
   * 'auth.signedOut'). Until then nothing is shown locked and no choice is refused: a licensed reader must not see
   * locks flash while their session loads, and the server gates every request anyway.
   */
  let featuresKnown = false;
  const shown: Record<Slot, Passage | null> = { primary: null, secondary: null };
  /** The passage each column wants now; a late answer for another key is dropped. */
  const wanted: Record<Slot, string | null> = { primary: null, secondary: null };

  const track = (event: TrackedEvent, properties?: Record<string, unknown>) => {
    try {
      analytics.track(event, properties);
    } catch (error) {
      logger.warn('Analytics send failed', error);
    }
  };

  const changed = () => {
    if (batching > 0) {
      dirty = true;
      return;
    }
    snapshot = null;
    for (const l of [...listeners]) l();
  };
  /** Run fn with change notifications folded into one. */
  const batch = (fn: () => void) => {
    batching++;
    try {
      fn();
    } finally {
      batching--;
      if (batching === 0 && dirty) {
        dirty = false;
        changed();
      }
    }
  };

  let hosts: ReturnType<typeof createHosts> | null = null;
  const h = () => {
    if (!hosts) throw new Error('The reader engine is not started');
    return hosts;
  };

  function host<M extends AnyStateMachine>(machine: M, input?: unknown, timersOf?: (s: SnapshotFrom<M>) => never[]) {
    return hostMachine({ machine, input: input as never, clock, timersOf, onChange: changed, onError: (e) => logger.error('Machine error', e) });
  }

  // ---- passage loading ----

  function sessionContext() {
    return h().session.getSnapshot().context;
  }

  function slotEdition(slot: Slot) {
    const c = sessionContext();
    return editionFor(c.publication, slot === 'primary' ? c.primary : c.secondary);
  }

  function loadSlot(slot: Slot) {
    const c = sessionContext();
    const choice = slot === 'primary' ? c.primary : c.secondary;
    const loader = h().loaders[slot];
    if (!choice || !c.publication) {
      wanted[slot] = null;
      shown[slot] = null;
      return;
    }
    const edition = slotEdition(slot);
    if (!edition) {
      wanted[slot] = null;
      shown[slot] = null;
      h().missing[slot].send({ type: 'edition.missing', language: choice.language, level: choice.level });
      return;
    }
    const position = Math.min(c.position, edition.passageCount);
    const key = `${edition.id}:${position}`;
    wanted[slot] = key;
    const apply = (passage: Passage) => {
      if (wanted[slot] !== key) return;
      batch(() => {
        shown[slot] = passage;
        if (passage.licenseRequired) {
          loader.send({ type: 'passage.licenseRequired' } as never);
          if (slot === 'primary') h().readerAudio.send({ type: 'license.required' } as never);
        } else if (passage.groupCodeRequired) {
          loader.send({ type: 'passage.groupCodeRequired' } as never);
        } else {
          loader.send({ type: 'passage.loaded' } as never);
        }
        if (slot === 'primary') {
          h().highlightDecode.send({
            type: 'passage.changed',
            hasSpeechMarks: Boolean(passage.audio?.speechMarks.length),
            hasDecodedText: passage.textDecoded !== null,
            isEnglish: edition.language.code === 'en',
          });
        }
      });
    };
    const cached = cache.get(edition.id, position);
    batch(() => {
      loader.send({ type: 'passage.load' } as never);
      if (cached) apply(cached);
    });
    if (!cached) {
      cache
        .load(edition.id, position)
        .then(apply)
        .catch((error: unknown) => {
          if (wanted[slot] !== key) return;
          const status = error instanceof ApiError ? error.status : 0;
          // SPEC §8: 'Premium content' on a passage sends the reader back to the catalog.
          if (error instanceof ApiError && error.message === PREMIUM_CONTENT_MESSAGE && ports.navigation) {
            ports.navigation.replace('/catalog');
            return;
          }
          batch(() => {
            shown[slot] = null;
            loader.send({ type: 'passage.failed', status } as never);
          });
        });
    }
    // Prefetch the neighbours of both editions in the background.
    for (const p of [position + 1, position - 1]) if (p >= 1 && p <= edition.passageCount) cache.prefetch(edition.id, p);
  }

  /** The primary edition the highlight/decode machine was last started for. */
  let highlightEditionId: number | null = null;

  function loadPassages() {
    for (const slot of SLOTS) loadSlot(slot);
    const edition = slotEdition('primary');
    if (edition && edition.id !== highlightEditionId) {
      highlightEditionId = edition.id;
      syncHighlightDecodeEdition();
    }
  }

  /** A new primary edition starts the highlight/decode machine afresh from the saved mode and what the edition allows. */
  function syncHighlightDecodeEdition() {
    const edition = slotEdition('primary');
    if (!edition || !hosts) return;
    hosts.highlightDecode.stop();
    hosts.highlightDecode = createHighlightDecode({
      highlightEnabled: edition.highlightModeEnabled,
      decodeEnabled: edition.decodeEnabled,
      hasDecodeFeature: features().includes('DECODE'),
      hasSpeechMarks: Boolean(shown.primary?.audio?.speechMarks.length),
      hasDecodedText: shown.primary?.textDecoded != null,
      isEnglish: edition.language.code === 'en',
    });
  }

  function savedReadingMode(): ReadingMode {
    if (settings.get('readerSettings').decodeEnabled) return 'decode';
    return settings.get('audioSettings')?.highlight ? 'highlight' : 'off';
  }

  function createHighlightDecode(facts: Omit<HighlightDecodeInput, 'savedMode'>) {
    return host(
      highlightDecodeMachine.provide({
        actions: {
          persistMode: (_, params) => {
            const current = settings.get('readerSettings');
            settings.set('readerSettings', { ...current, decodeEnabled: params.mode === 'decode' });
            const audio = settings.get('audioSettings');
            if (audio || params.mode === 'highlight') {
              settings.set('audioSettings', {
                audioControlState: audio?.audioControlState ?? 'closed',
                autoPlay: audio?.autoPlay ?? false,
                currentTime: audio?.currentTime ?? 0,
                editionSelected: audio?.editionSelected ?? 'primary',
                playbackSpeed: audio?.playbackSpeed ?? {},
                highlight: params.mode === 'highlight',
              });
            }
          },
          requestSpeechMarks: () => queueMicrotask(() => hosts && requestSpeechMarks()),
          requestDecodedText: () => queueMicrotask(() => hosts && requestDecodedText()),
          showDecodeUpgrade: (_, params) => {
            premiumDialog = { feature: params.feature };
            changed();
          },
        },
      }),
      { ...facts, savedMode: savedReadingMode() },
    );
  }

  /**
   * The features in force for the open title (or in general, when none is open): the signed-in user's, else the
   * class code's, which reach only the titles the code opens (classCodeFeatures, as the server applies them).
   */
  function features(): string[] {
    const code = h().classCode.getSnapshot().context;
    const stored = settings.get('features');
    const resolved = resolveFeatures(
      userFeatures ? { features: userFeatures } : null,
      code.code ? { groupCodeValid: !(code as { lastCheckInvalid?: boolean }).lastCheckInvalid, features: stored } : null,
    );
    if (userFeatures || !code.code) return resolved;
    const titleIds = settings.get('classTitleIds');
    const titleId = sessionContext().publication?.id;
    if (titleIds === null || titleId === undefined) return resolved;
    return [...classCodeFeatures(resolved, titleIds.includes(titleId))];
  }

  /** A valid visitor check's features and titles, kept with the class code. */
  function storeVisitor(visitor: VisitorAnswer) {
    settings.set('features', visitor.features);
    settings.set('classTitleIds', visitor.titleIds ?? null);
  }

  /** The class code the visitor check last answered for in this engine's life (checked once, not on every page). */
  let checkedCode: string | null = null;

  /**
   * SPEC §7 GET /visitors/me: a stored class code is checked again once the engine knows nobody is signed in. Valid
   * keeps it (with fresh features and titles), invalid clears it ('Invalid Class Code'), an API error shows its
   * message and marks the code with '!'.
   */
  function recheckClassCode() {
    const hs = h();
    const code = hs.classCode.getSnapshot();
    const value = code.context.code;
    if (userFeatures || !value || !code.matches('active') || checkedCode === value || !api.getVisitor) return;
    checkedCode = value;
    const current = () => hosts?.classCode.getSnapshot().context.code === value;
    api.getVisitor({ groupCode: value }).then(
      (visitor: VisitorAnswer) => {
        if (!current()) return;
        if (!visitor.groupCodeValid) {
          hosts?.classCode.send({ type: 'classCode.invalidated' } as never);
          return;
        }
        storeVisitor(visitor);
        batch(() => {
          hosts?.classCode.send({ type: 'classCode.checkPassed' } as never);
          featuresChanged();
        });
      },
      (error: unknown) => {
        if (!current()) return;
        checkedCode = null;
        hosts?.classCode.send({ type: 'classCode.checkFailed', message: error instanceof Error ? error.message : undefined } as never);
      },
    );
  }

  /** The locks of each column, kept while the title, the column's language and the features are the same. */
  const lockCache: Record<Slot, { key: string; locks: ColumnLocks } | null> = { primary: null, secondary: null };
  function locksFor(slot: Slot): ColumnLocks {
    const c = sessionContext();
    const choice = slot === 'primary' ? c.primary : c.secondary;
    if (!c.publication || !choice || !featuresKnown) return NO_LOCKS;
    const held = features();
    const key = JSON.stringify([c.publication.id, c.publication.version, choice.language, held]);
    const cached = lockCache[slot];
    if (cached && cached.key === key) return cached.locks;
    const locks = columnLocks(c.publication, choice.language, held);
    lockCache[slot] = { key, locks };
    return locks;
  }

  function openPremiumDialog(feature: PremiumFeature) {
    premiumDialog = { feature };
    changed();
  }

  /** The features in force changed: decode mode, the listen flow's audio lock and the column locks follow. */
  function featuresChanged() {
    if (!hosts) return;
    const hasDecodeFeature = features().includes('DECODE');
    // DECODE just arrived (the signed-in user loads after the reader opens): start the mode machine again, so a
    // saved decode mode resumes as it would have had the features been known from the start.
    if (hasDecodeFeature && !hosts.highlightDecode.getSnapshot().context.hasDecodeFeature && slotEdition('primary')) syncHighlightDecodeEdition();
    else hosts.highlightDecode.send({ type: 'features.changed', hasDecodeFeature });
    listenDriver.refresh();
    changed();
  }

  function savePosition() {
    const c = sessionContext();
    if (!c.publication || !c.primary) return;
    const all = settings.get('lastPassages');
    const entry: ReaderPosition = {
      language: c.primary.language,
      level: c.primary.level,
      position: c.position,
      publicationSlug: c.publication.slug,
      publicationVersion: c.publication.version,
      secondaryLanguage: c.secondary?.language ?? null,
      secondaryLevel: c.secondary?.level ?? null,
    };
    settings.set('lastPassages', { ...all, [c.publication.slug]: entry });
  }

  function createHosts() {
    const audioSettings = settings.get('audioSettings');

    const session = host(
      readingSessionMachine.provide({
        actions: {
          loadPublication: ({ context }) => {
            const request = context.request;
            if (!request) return;
            api
              .getPublication(request.slug, request.version)
              .then(
                (publication) => hosts?.session.send({ type: 'publication.loaded', publication }),
                (error: unknown) => {
                  const e = error instanceof ApiError ? error : new ApiError(0, []);
                  hosts?.session.send({ type: 'publication.failed', status: e.status, message: e.message || DEFAULT_ERROR_MESSAGE });
                },
              )
              .catch((error: unknown) => logger.error('Publication handling failed', error));
          },
          loadPassages: () => queueMicrotask(() => hosts && loadPassages()),
          savePosition: () => queueMicrotask(() => hosts && savePosition()),
          saveRecentLanguages: () =>
            queueMicrotask(() => hosts && settings.set('recentLanguages', h().session.getSnapshot().context.recentLanguages)),
          syncAddress: () =>
            queueMicrotask(() => {
              if (!hosts || !ports.navigation) return;
              const c = sessionContext();
              if (!c.publication || !c.primary) return;
              const path = buildReaderPath({
                slug: c.publication.slug,
                version: c.publication.version,
                primary: c.primary,
                secondary: c.secondary,
                position: c.position,
              });
              // The query string (playbackSpeed, groupCode handling, …) belongs to other rules: keep it.
              const [current, query] = splitQuery(ports.navigation.current());
              if (current !== path) ports.navigation.replace(query ? `${path}?${query}` : path);
            }),
          leaveToCatalog: () => ports.navigation?.replace('/catalog'),
          trackViewedPassage: () =>
            queueMicrotask(() => {
              if (!hosts) return;
              const c = sessionContext();
              track('Viewed Passage', { slug: c.publication?.slug, position: c.position, language: c.primary?.language, level: c.primary?.level });
            }),
        },
      }),
      { recentLanguages: settings.get('recentLanguages') },
    );

    const loaders = {
      primary: host(passageLoadingMachine.provide({ actions: { refetchPassage: () => queueMicrotask(() => hosts && loadSlot('primary')) } })),
      secondary: host(passageLoadingMachine.provide({ actions: { refetchPassage: () => queueMicrotask(() => hosts && loadSlot('secondary')) } })),
    };

    const missingFor = (slot: Slot) =>
      host(
        missingEditionMachine.provide({
          actions: {
            createEdition: (_, params) => {
              const c = sessionContext();
              if (!api.createEdition || !c.publication) {
                queueMicrotask(() => hosts?.missing[slot].send({ type: 'edition.creationFailed' } as never));
                return;
              }
              api
                .createEdition(c.publication.slug, {
                  version: c.publication.version,
                  languageCode: params.language as LanguageCode,
                  level: params.level as Level,
                })
                .then(
                  () => hosts?.missing[slot].send({ type: 'edition.created' } as never),
                  () => hosts?.missing[slot].send({ type: 'edition.creationFailed' } as never),
                );
            },
            refreshPublication: () => queueMicrotask(() => hosts?.session.send({ type: 'publication.reload' })),
          },
        }),
        { slot },
      );
    const missing = { primary: missingFor('primary'), secondary: missingFor('secondary') };

    const readerAudio = host(
      readerAudioMachine.provide({
        actions: {
          trackOpenedAudioPlayer: () => track('Opened Audio Player'),
          trackClosedAudioPlayer: () => track('Closed Audio Player'),
          trackPausedAudio: () => track('Paused Audio'),
          trackResumedAudio: () => track('Resumed Audio'),
        },
      }),
      { hasSavedSettings: audioSettings !== null },
    );

    const highlightDecode = createHighlightDecode({
      highlightEnabled: false,
      decodeEnabled: false,
      hasDecodeFeature: false,
      hasSpeechMarks: false,
      hasDecodedText: false,
      isEnglish: false,
    });

    const toasts = host(toastsMachine, undefined, toastTimers as never);
    const showToast = (_: unknown, params: { kind: 'success' | 'error'; message: string }) =>
      toasts.send({ type: 'toast.show', kind: params.kind, message: params.message } as never);

    const classCode = host(
      classCodeMachine.provide({
        actions: {
          verifyClassCode: (_, params) => {
            if (!api.getVisitor) {
              logger.warn('Class codes cannot be verified: the API has no visitor check');
              queueMicrotask(() => hosts?.classCode.send({ type: 'classCode.rejected' } as never));
              return;
            }
            api
              .getVisitor({ groupCode: params.code })
              .then((visitor: VisitorAnswer) => {
                if (visitor.groupCodeValid) {
                  storeVisitor(visitor);
                  checkedCode = params.code.toUpperCase();
                  hosts?.classCode.send({ type: 'classCode.verified' } as never);
                } else {
                  hosts?.classCode.send({ type: 'classCode.rejected' } as never);
                }
              })
              .catch((error: unknown) =>
                hosts?.classCode.send({ type: 'classCode.rejected', message: error instanceof Error ? error.message : undefined } as never),
              );
          },
          removeCodeFromAddress: () => {
            if (!ports.navigation) return;
            const [path, query = ''] = ports.navigation.current().split('?');
            const params = new URLSearchParams(query);
            params.delete('groupCode');
            const rest = params.toString();
            ports.navigation.replace(rest ? `${path}?${rest}` : path);
          },
          storeClassCode: (_, params) => settings.set('groupCode', params.code),
          clearStoredClassCode: () => {
            settings.remove('groupCode');
            settings.remove('features');
            settings.remove('classTitleIds');
          },
          showToast,
        },
      }),
      { storedCode: settings.get('groupCode') },
    );

    const roleModal = host(
      roleModalMachine.provide({
        actions: {
          updateRole: (_, params) => {
            if (!api.updateRole) {
              queueMicrotask(() => hosts?.roleModal.send({ type: 'role.failed', error: new Error('No role API') } as never));
              return;
            }
            api
              .updateRole(params.role)
              .then(
                () => hosts?.roleModal.send({ type: 'role.saved' } as never),
                (error: unknown) => hosts?.roleModal.send({ type: 'role.failed', error } as never),
              );
          },
          logRoleUpdateFailed: (_, params) => logger.error(params.message, params.error),
          storeClosedFlag: () => settings.set('roleModalClosed', true),
          resetClosedFlag: () => settings.remove('roleModalClosed'),
        },
      }),
      { closedBefore: settings.get('roleModalClosed') },
    );

    const copyLink = host(copyLinkMachine.provide({ actions: { trackCopiedMagicLink: () => track('Copied Magic Link'), showToast } }));
    const levelIndicator = host(
      levelIndicatorMachine.provide({ actions: { storeIndicatorSeen: () => settings.set('editionIndicatorSeen', true) } }),
      { seenBefore: settings.get('editionIndicatorSeen') },
    );
    const toolbar = host(toolbarMachine);

    return { session, loaders, missing, readerAudio, highlightDecode, toasts, classCode, roleModal, copyLink, levelIndicator, toolbar };
  }

  // The listen flow: its machine and its I/O (narration fetch, audio, prefetch, advance) live in listenDriver.
  const listenDriver = createListenDriver({
    api,
    clock,
    audio: ports.listenAudio,
    navigation: ports.navigation,
    logger,
    onChange: changed,
    isAudioLocked: (language) => Boolean(hosts) && featuresKnown && isAudioLocked(language, features()),
  });

  function requestSpeechMarks() {
    const passage = shown.primary;
    if (!passage) return;
    if (api.getPassageAudio && readerAudio) {
      // The narration call brings the url, the marks and the duration together; the driver merges them.
      readerAudio.ensureNarration('primary').catch((error: unknown) => logger.warn('Speech marks failed', error));
      return;
    }
    if (!api.getSpeechMarks) return;
    api
      .getSpeechMarks(passage.id)
      .then((marks: { offset: number; time: number }[]) => {
        const merged = cache.merge(passage.editionId, passage.position, { audio: { url: passage.audio?.url ?? '', speechMarks: marks } });
        if (merged && shown.primary?.id === passage.id) shown.primary = merged;
        hosts?.highlightDecode.send({ type: 'speechMarks.loaded' });
      })
      .catch((error: unknown) => logger.warn('Speech marks failed', error));
  }

  function requestDecodedText() {
    const passage = shown.primary;
    if (!passage || !api.getDecodedText) return;
    api
      .getDecodedText(passage.id, passage.editionId, passage.position)
      .then((textDecoded: string) => {
        const merged = cache.merge(passage.editionId, passage.position, { textDecoded });
        if (merged && shown.primary?.id === passage.id) shown.primary = merged;
        hosts?.highlightDecode.send({ type: 'decodedText.loaded' });
      })
      .catch((error: unknown) => logger.warn('Decoded text failed', error));
  }

  /** Route an event to the machines that accept it. */
  const routes = new Map<string, (event: ReaderEngineEvent) => void>();
  function route(event: ReaderEngineEvent) {
    const hs = h();
    switch (event.type) {
      case 'reader.open': {
        const request = { ...event.request };
        if (event.useStoredPosition) {
          const stored = settings.get('lastPassages')[request.slug];
          if (stored) {
            request.primary = { language: stored.language, level: stored.level };
            request.secondary = stored.secondaryLanguage && stored.secondaryLevel ? { language: stored.secondaryLanguage, level: stored.secondaryLevel } : null;
            request.position = stored.position;
            request.fallbackToDefault = true;
          }
        }
        applyPlaybackSpeedQuery();
        batch(() => {
          for (const slot of SLOTS) {
            hs.missing[slot].send({ type: 'edition.reset' } as never);
            shown[slot] = null;
          }
          hs.session.send({ type: 'session.open', request });
        });
        return;
      }
      case 'reader.sync': {
        const c = sessionContext();
        const r = event.request;
        const same = (a?: { language: string; level: string } | null, b?: { language: string; level: string } | null) =>
          (a ?? null) === null ? (b ?? null) === null : !!b && a!.language === b.language && a!.level === b.level;
        const open = c.publication && c.publication.slug === r.slug && (!r.version || r.version === c.publication.version);
        if (open && same(r.primary ?? c.publication!.defaultReader.left, c.primary) && same(r.secondary ?? null, c.secondary)) {
          if (r.position !== undefined && r.position !== c.position) hs.session.send({ type: 'page.goto', position: r.position });
          return;
        }
        route({ type: 'reader.open', request: r });
        return;
      }
      case 'reader.close':
        // Leaving the reader stops its audio: the player stays open, paused, for the next reader.
        if (hs.readerAudio.getSnapshot().matches('playing')) hs.readerAudio.send({ type: 'audio.pause' });
        premiumDialog = null;
        hs.session.send({ type: 'session.close' });
        return;
      case 'passage.refresh':
        hs.loaders[event.slot].send({ type: 'passage.refresh' } as never);
        return;
      case 'premiumDialog.open':
        openPremiumDialog(event.feature);
        return;
      // A locked level or a greyed language is not chosen: its upgrade is offered instead (SPEC §5, §6).
      case 'level.change': {
        const upgrade = featuresKnown && levelUpgrade(sessionContext().publication, event.level, features());
        if (upgrade) {
          openPremiumDialog(upgrade);
          return;
        }
        break;
      }
      case 'language.change': {
        const upgrade = featuresKnown && languageUpgrade(sessionContext().publication, event.language, features());
        if (upgrade) {
          openPremiumDialog(upgrade);
          return;
        }
        break;
      }
      case 'user.features':
        userFeatures = event.features;
        featuresKnown = true;
        featuresChanged();
        recheckClassCode();
        return;
      case 'premiumDialog.close':
        premiumDialog = null;
        changed();
        return;
      case 'copy.request': {
        const clipboard = ports.clipboard;
        if (!clipboard) {
          hs.copyLink.send({ type: 'copy.failed' } as never);
          return;
        }
        clipboard
          .writeText(event.text)
          .then(
            () => hosts?.copyLink.send({ type: 'copy.succeeded' } as never),
            () => hosts?.copyLink.send({ type: 'copy.failed' } as never),
          );
        return;
      }
      case 'auth.signedIn':
        track('Signed In');
        hs.classCode.send(event as never);
        return;
      case 'auth.signedOut':
        track('Signed Out');
        userFeatures = null;
        featuresKnown = true;
        hs.roleModal.send(event as never);
        featuresChanged();
        return;
      case 'user.loaded':
        userFeatures = 'features' in event && event.features ? event.features : [];
        featuresKnown = true;
        batch(() => {
          hs.roleModal.send({ type: 'user.loaded', hasRole: event.hasRole } as never);
          featuresChanged();
        });
        return;
      case 'catalog.viewed':
        track('Viewed Catalog');
        return;
      case 'publication.viewed':
        track('Viewed Novel', { slug: event.slug });
        return;
      case 'url.visited':
        track('Visited URL', { url: event.url });
        return;
      case 'audio.settingsChanged':
        track('Changed Audio Settings', { playbackSpeed: event.playbackSpeed, autoPlay: event.autoPlay });
        if (event.playbackSpeed !== undefined) setPlaybackSpeed(event.playbackSpeed);
        if (event.autoPlay !== undefined) saveAudioSettings({ autoPlay: event.autoPlay });
        return;
      case 'audio.listen': {
        if (!event.on) {
          hs.readerAudio.send({ type: 'audio.close' });
          return;
        }
        // A column whose language is not voiced for this reader offers the upgrade instead (SPEC §6 Audio).
        if (locksFor(event.slot).audioLocked) {
          openPremiumDialog('Audio');
          return;
        }
        saveAudioSettings({ editionSelected: event.slot });
        const state = String(hs.readerAudio.getSnapshot().value);
        if (state === 'closed') hs.readerAudio.send({ type: 'audio.open' });
        else if (state === 'paused') hs.readerAudio.send({ type: 'audio.play' });
        // The Listen toggle reads along: highlight comes on unless decode (or nothing) was chosen instead.
        if (hs.highlightDecode.getSnapshot().matches('off')) hs.highlightDecode.send({ type: 'highlight.toggle' });
        changed();
        return;
      }
      case 'audio.seek':
        readerAudio?.seek(event.seconds);
        return;
      // The listen flow is run by listenDriver (src/engine/listenDriver.ts).
      case 'listen.start':
        premiumDialog = null;
        listenDriver.start(event);
        return;
      case 'listen.upgrade':
        openPremiumDialog('Audio');
        return;
      case 'listen.page':
        listenDriver.page(event.position);
        return;
      case 'listen.seek':
        listenDriver.seek(event.seconds);
        return;
    }
    const targets = routes.get(event.type);
    if (!targets) {
      logger.warn(`No machine accepts ${event.type}`);
      return;
    }
    targets(event);
  }

  function buildRoutes() {
    type Target = () => { send(event: never): void } | null;
    const table: [Target, AnyStateMachine][] = [
      [() => hosts?.session ?? null, readingSessionMachine],
      [() => hosts?.toolbar ?? null, toolbarMachine],
      [() => hosts?.readerAudio ?? null, readerAudioMachine],
      [() => hosts?.highlightDecode ?? null, highlightDecodeMachine],
      [() => hosts?.classCode ?? null, classCodeMachine],
      [() => hosts?.roleModal ?? null, roleModalMachine],
      [() => hosts?.toasts ?? null, toastsMachine],
      [() => hosts?.copyLink ?? null, copyLinkMachine],
      [() => hosts?.levelIndicator ?? null, levelIndicatorMachine],
      [() => listenDriver.machine(), listenAudioMachine],
    ];
    for (const [target, machine] of table) {
      for (const type of (machine.root as unknown as { events: string[] }).events) {
        const previous = routes.get(type);
        const deliver = (event: ReaderEngineEvent) => target()?.send(event as never);
        routes.set(type, previous ? (e) => (previous(e), deliver(e)) : deliver);
      }
    }
  }

  function compose(): ReaderEngineSnapshot {
    const hs = h();
    const slot = (s: Slot): SlotView => ({
      passage: shown[s],
      loading: hs.loaders[s].getSnapshot(),
      missing: hs.missing[s].getSnapshot(),
      locks: locksFor(s),
    });
    return {
      session: hs.session.getSnapshot(),
      primary: slot('primary'),
      secondary: slot('secondary'),
      toolbar: hs.toolbar.getSnapshot(),
      readerAudio: hs.readerAudio.getSnapshot(),
      readerPlayer: readerAudio?.view() ?? null,
      listenAudio: listenDriver.machine()?.getSnapshot() ?? null,
      listenPlayer: listenDriver.player(),
      highlightDecode: hs.highlightDecode.getSnapshot(),
      classCode: hs.classCode.getSnapshot(),
      roleModal: hs.roleModal.getSnapshot(),
      toasts: hs.toasts.getSnapshot(),
      copyLink: hs.copyLink.getSnapshot(),
      levelIndicator: hs.levelIndicator.getSnapshot(),
      features: features(),
      premiumDialog,
    };
  }

  // ---- the reader's audio (src/engine/readerAudioDriver.ts) ----

  let readerAudio: ReaderAudioDriver | null = null;
  /** What was last saved of the player, so settings are written only when it changes. */
  let savedAudio: { state: string; passage: string } | null = null;

  function saveAudioSettings(patch: Partial<NonNullable<ReturnType<typeof settings.get<'audioSettings'>>>>) {
    const audio = settings.get('audioSettings');
    settings.set('audioSettings', {
      audioControlState: audio?.audioControlState ?? 'closed',
      autoPlay: audio?.autoPlay ?? false,
      currentTime: audio?.currentTime ?? 0,
      editionSelected: audio?.editionSelected ?? 'primary',
      playbackSpeed: audio?.playbackSpeed ?? {},
      highlight: audio?.highlight ?? false,
      ...patch,
    });
  }

  function createReaderAudio() {
    return createReaderAudioDriver(
      { api, clock, audio: ports.audio, logger },
      {
        state: () => (hosts ? String(hosts.readerAudio.getSnapshot().value) : 'closed'),
        passage: (slot) => shown[slot],
        edition: (slot) => (hosts ? slotEdition(slot) : undefined),
        hasSecondary: () => Boolean(hosts && sessionContext().secondary),
        selected: () => settings.get('audioSettings')?.editionSelected ?? 'primary',
        needsMarks: () => Boolean(hosts?.highlightDecode.getSnapshot().matches('highlight')),
        speeds: () => settings.get('audioSettings')?.playbackSpeed ?? {},
        merge: (slot, passage, narration) => {
          const merged = cache.merge(passage.editionId, passage.position, { audio: narration });
          batch(() => {
            if (merged && shown[slot]?.id === passage.id) shown[slot] = merged;
            if (slot === 'primary' && narration.speechMarks.length) hosts?.highlightDecode.send({ type: 'speechMarks.loaded' });
            changed();
          });
        },
        ended: () => hosts?.readerAudio.send({ type: 'audio.ended' } as never),
        changed,
      },
    );
  }

  /** Runs after every change: the audio follows the machine, and the player's state is saved when it moves. */
  function syncReaderAudio() {
    if (!hosts || !readerAudio) return;
    readerAudio.sync();
    const state = String(hosts.readerAudio.getSnapshot().value);
    const view = readerAudio.view();
    const passage = `${view.editionId}:${view.passageId}`;
    if (state === 'init' || (savedAudio && savedAudio.state === state && savedAudio.passage === passage)) return;
    const first = savedAudio === null;
    const paged = savedAudio !== null && savedAudio.passage !== passage;
    savedAudio = { state, passage };
    // Nothing is saved until the player is used (its initial state depends on saved settings existing).
    if (first && settings.get('audioSettings') === null) return;
    saveAudioSettings({
      audioControlState: state as 'closed' | 'paused' | 'playing',
      // Paging resets the audio time of both editions to 0 (SPEC §4).
      currentTime: paged ? 0 : Math.floor(readerAudio.time()),
    });
  }

  /** The `playbackSpeed` query parameter sets the saved speeds (docs/decisions.md). */
  function applyPlaybackSpeedQuery() {
    if (!ports.navigation) return;
    const [, query] = splitQuery(ports.navigation.current());
    const request = parsePlaybackSpeedParam(new URLSearchParams(query).get('playbackSpeed'));
    if (!request) return;
    const current = settings.get('audioSettings')?.playbackSpeed ?? {};
    saveAudioSettings({ playbackSpeed: applyPlaybackSpeedRequest(current, request) });
    readerAudio?.applySpeed();
  }

  /** Save a new speed for the edition the player plays; an address that carries playbackSpeed is kept in step. */
  function setPlaybackSpeed(speed: number) {
    if (!isPlaybackSpeed(speed) || !readerAudio) return;
    const editionId = readerAudio.view().editionId;
    if (editionId === null) return;
    const speeds = { ...(settings.get('audioSettings')?.playbackSpeed ?? {}), [String(editionId)]: speed };
    saveAudioSettings({ playbackSpeed: speeds });
    readerAudio.applySpeed();
    if (ports.navigation) {
      const [path, query] = splitQuery(ports.navigation.current());
      const params = new URLSearchParams(query);
      if (params.has('playbackSpeed')) {
        params.set('playbackSpeed', formatPlaybackSpeedParam(speeds));
        ports.navigation.replace(`${path}?${params.toString().replace(/%3A/gi, ':').replace(/%2C/gi, ',')}`);
      }
    }
  }

  return {
    settings,
    start() {
      if (started) return;
      started = true;
      batch(() => {
        hosts = createHosts();
        buildRoutes();
      });
      snapshot = null;
      readerAudio = createReaderAudio();
      savedAudio = null;
      highlightEditionId = null;
      listeners.add(syncReaderAudio);
      syncReaderAudio();
    },
    send(event) {
      if (!started) throw new Error('Call engine.start() before engine.send()');
      batch(() => route(event));
    },
    getAudioTime() {
      return readerAudio?.time() ?? 0;
    },
    getSnapshot() {
      if (!started) throw new Error('Call engine.start() before engine.getSnapshot()');
      snapshot ??= compose();
      return snapshot;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      if (!started || !hosts) return;
      listenDriver.stop();
      // Answers still in flight land on a stopped engine: drop them.
      wanted.primary = null;
      wanted.secondary = null;
      readerAudio?.stop();
      readerAudio = null;
      const hs = hosts;
      hosts = null;
      started = false;
      for (const x of [hs.session, hs.loaders.primary, hs.loaders.secondary, hs.missing.primary, hs.missing.secondary, hs.readerAudio, hs.highlightDecode, hs.toasts, hs.classCode, hs.roleModal, hs.copyLink, hs.levelIndicator, hs.toolbar]) x.stop();
      listeners.clear();
    },
  };
}

/** Split an address into its path and its query string (without the `?`). */
function splitQuery(address: string): [string, string] {
  const at = address.indexOf('?');
  return at < 0 ? [address, ''] : [address.slice(0, at), address.slice(at + 1)];
}
