/**
 * The reader system (SPEC §2 Reader, §4, §5, §6): the root machine whose children are the product's machines.
 * Its context holds what spans them: the stored settings, who reads (features), the screen and the listen flow's
 * language. Everything the views render is read from it or its children.
 */
import type { Level } from '../../domain/levels';
import type { Publication } from '../../domain/schemas';
import type { ReaderSettings, SettingChange, SettingWrite, StoredSettings } from '../../domain/settings';
export type { SettingChange, SettingWrite, StoredSettings };
import type { AccessFacts, VisitorCheck } from '../access';
import type { NarrationLoadedParams } from '../player';
import type { ListenFlowInput } from '../listenFlow';
import type { EditionChoice, SessionRequest, Slot } from '../readingSession';

/** What the listen page tells the system when it opens an edition ('listen.start'): the flow's input but the lock, which the system works out. */
export type ListenStart = Omit<ListenFlowInput, 'audioLocked'>;

export interface ReaderSystemInput {
  settings: StoredSettings;
}

/** What the reading session shows: sent with the session's events (the address, the stored position, the tracking), so the root never reads a child's snapshot. */
export interface SessionView {
  publication: Publication | null;
  primary: EditionChoice | null;
  secondary: EditionChoice | null;
  position: number;
}

export interface ReaderSystemContext {
  settings: StoredSettings;
  /** Who reads and the features in force, as the access child last told them ('access.changed'). */
  access: AccessFacts;
  /** What the reader asked to open (after the stored position is applied): `opening` loads its title. */
  request: SessionRequest | null;
  /** What the view says of the screen: wide enough for two columns. */
  viewport: { wide: boolean };
  /** The listen flow running (after 'listen.start'): its language, for the audio gate. */
  listen: { language: string | null } | null;
}

/** Events the root itself understands. */
export type ReaderSystemOwnEvent =
  /** Open the reader. With `useStoredPosition`, the stored position of this publication wins when its editions still exist. */
  | { type: 'reader.open'; request: SessionRequest; useStoredPosition?: boolean }
  | { type: 'reader.close' }
  | { type: 'auth.signedIn' }
  | { type: 'auth.signedOut' }
  /** The signed-in user arrived (features from their plan). */
  | { type: 'user.loaded'; hasRole: boolean; features?: string[] }
  | { type: 'catalog.viewed' }
  | { type: 'publication.viewed'; slug: string }
  | { type: 'url.visited'; url: string }
  /** The reader's display settings (text size, columns). */
  | { type: 'settings.reader'; patch: Partial<Omit<ReaderSettings, 'decodeEnabled'>> }
  /** The screen is wide enough for two columns (a DOM fact the view reports). */
  | { type: 'viewport.changed'; wide: boolean }
  | ({ type: 'listen.start' } & ListenStart);

/** What the children tell the root (sent with sendParent by the actions the root provides them). */
export type ReaderSystemChildEvent =
  /** The session was sent an address it does not show ('reader.sync'): the system opens it. */
  | { type: 'session.reopen'; request: SessionRequest }
  | { type: 'session.savePosition'; view: SessionView }
  | { type: 'session.syncAddress'; view: SessionView }
  | { type: 'session.leave' }
  | { type: 'session.viewedPassage'; view: SessionView }
  /** A column's Listen turned on (the column checked its audio gate): it plays, read along with highlight. */
  | { type: 'column.listen'; slot: Slot }
  /** 'Play from here' in a column's word mode: that column plays from the word's time (null without speech marks). */
  | { type: 'column.playFrom'; slot: Slot; from: { passageId: number; seconds: number } | null }
  /** A column created its missing edition: the title is fetched again. */
  | { type: 'edition.reload' }
  /** Access: the features in force may have changed. */
  | { type: 'access.changed'; access: AccessFacts }
  | { type: 'code.removeFromAddress' }
  /** A child changes a stored setting (a whole value or a patch, src/domain/settings.ts). */
  | { type: 'setting.write'; write: SettingChange }
  | { type: 'analytics.track'; event: string; properties?: Record<string, unknown> };

export type { AccessFacts, VisitorCheck };

/**
 * The events the views and other front ends send to the root: its own. Every other view event goes to the child
 * the view shows (`engine.getChild`).
 */
export type ReaderSystemEvent = ReaderSystemOwnEvent;

/** Every event the root machine handles. */
export type ReaderSystemMachineEvent = ReaderSystemEvent | ReaderSystemChildEvent;

export type { Slot, EditionChoice, SessionRequest, Level };
