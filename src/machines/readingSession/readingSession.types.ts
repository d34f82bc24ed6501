import type { Level } from '../../domain/levels';
import type { Publication } from '../../domain/schemas';

export type Slot = 'primary' | 'secondary';

export interface EditionChoice {
  language: string;
  level: Level;
}

/** What a reader URL or the stored position asks for. */
export interface SessionRequest {
  slug: string;
  /** 'v1'; absent means the latest. */
  version?: string;
  primary?: EditionChoice;
  secondary?: EditionChoice | null;
  position?: number;
  /** When the asked editions no longer exist, use the publication's default reader (a stored position). */
  fallbackToDefault?: boolean;
}

/** Who reads, as the access child tells the reader system ('access.changed'), which tells the session. */
export interface ReaderAccess {
  /** The system has heard who reads; until then no choice offers an upgrade (no flash of locks). @default false */
  known: boolean;
  /** The signed-in user's features, else a valid class code's. @default [] */
  features: string[];
  /** For a class code, the titles its features reach; null when they reach every title. @default null */
  titleIds: number[] | null;
}

export interface ReadingSessionContext {
  request: SessionRequest | null;
  publication: Publication | null;
  primary: EditionChoice | null;
  secondary: EditionChoice | null;
  position: number;
  /** Most recent first, no duplicates, capped (RECENT_LANGUAGES_CAP). */
  recentLanguages: string[];
  error: { status: number; message: string } | null;
  /** Who reads, for the gates of a level or language choice. */
  access: ReaderAccess;
  /** The reader wants two columns and the screen and who reads allow them: a title shown with one opens the second. */
  twoColumns: boolean;
}

export interface ReadingSessionInput {
  recentLanguages?: string[];
}

export type ReadingSessionEvent =
  /** The reader system: whether two columns are wanted and allowed (SPEC §2 Two-column mode). */
  | { type: 'columns.wanted'; wanted: boolean }
  | { type: 'session.open'; request: SessionRequest }
  | { type: 'publication.loaded'; publication: Publication }
  | { type: 'publication.failed'; status: number; message: string }
  /** Reload the publication (after an edition was created on demand). */
  | { type: 'publication.reload' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'page.goto'; position: number }
  /** A column's language or level chosen: a locked one offers its upgrade instead (SPEC §5, §6). */
  | { type: 'language.change'; slot: Slot; language: string }
  | { type: 'level.change'; slot: Slot; level: Level }
  /** Two-column mode: show a secondary edition, or hide it. */
  | { type: 'secondary.set'; choice: EditionChoice }
  | { type: 'secondary.clear' }
  | { type: 'session.close' }
  /** The reader system: who reads changed (a sign-in, a class code); a locked choice offers its upgrade. */
  | { type: 'access.changed'; access: ReaderAccess };
