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

/** Who reads, as the access child tells the reader system ('access.changed'), which tells the session ('reader.facts'). */
export interface ReaderAccess {
  /** The system has heard who reads; until then no choice offers an upgrade (no flash of locks). @default false */
  known: boolean;
  /** The signed-in user's features, else a valid class code's. @default [] */
  features: string[];
  /** For a class code, the titles its features reach; null when they reach every title. @default null */
  titleIds: number[] | null;
  /** The class code in force, or null: a class code keeps the reader in one column. @default null */
  classCode: string | null;
}

/**
 * What the reader system tells the session of the reader's world ('reader.facts'): who reads, whether the screen is
 * wide enough for two columns, whether the reader chose two, and which column's Listen was turned on last.
 */
export interface ReaderFacts {
  access: ReaderAccess;
  wide: boolean;
  columns: 'one-column' | 'two-column';
  /** The saved `editionSelected`: the column whose Listen toggle was turned on last (src/domain/playingEdition.ts). */
  editionSelected: Slot | null;
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
  /**
   * The reader's world as the system last told it: who reads (the gates of a choice, the columns' locks), the screen,
   * the columns chosen and the column chosen to play. With the view it decides what each column and the reading mode
   * are told.
   */
  facts: ReaderFacts;
}

export interface ReadingSessionInput {
  recentLanguages?: string[];
}

export type ReadingSessionEvent =
  /** The reader system: who reads, the screen and the columns chosen (told on each change). */
  | ({ type: 'reader.facts' } & ReaderFacts)
  /** The address changed: page within the open title when only the position moved, else the system opens it. */
  | { type: 'reader.sync'; request: SessionRequest }
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
  | { type: 'session.close' };
