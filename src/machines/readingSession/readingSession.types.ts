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

export interface ReadingSessionContext {
  request: SessionRequest | null;
  publication: Publication | null;
  primary: EditionChoice | null;
  secondary: EditionChoice | null;
  position: number;
  /** Most recent first, no duplicates, capped (RECENT_LANGUAGES_CAP). */
  recentLanguages: string[];
  error: { status: number; message: string } | null;
}

export interface ReadingSessionInput {
  recentLanguages?: string[];
}

export type ReadingSessionEvent =
  | { type: 'session.open'; request: SessionRequest }
  | { type: 'publication.loaded'; publication: Publication }
  | { type: 'publication.failed'; status: number; message: string }
  /** Reload the publication (after an edition was created on demand). */
  | { type: 'publication.reload' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'page.goto'; position: number }
  | { type: 'language.change'; slot: Slot; language: string }
  | { type: 'level.change'; slot: Slot; level: Level }
  /** Two-column mode: show a secondary edition, or hide it. */
  | { type: 'secondary.set'; choice: EditionChoice }
  | { type: 'secondary.clear' }
  | { type: 'session.close' };

/** A language or level chosen for a column: the reader system offers the upgrade for a locked one, else the session takes it. */
export type EditionChangeEvent = Extract<ReadingSessionEvent, { type: 'language.change' | 'level.change' }>;
