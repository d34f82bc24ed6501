import type { SnapshotFrom } from 'xstate';
import type { Level } from '../../domain/levels';
import { currentShortcut as shortcutAt } from '../../domain/shortcuts';
import { editionFor, maxPositionOf, type readingSessionMachine } from './readingSession.machine';
import type { EditionChoice, ReadingSessionEvent, Slot } from './readingSession.types';

/**
 * The session's view: paging, the second column and a language or level choice are sent to the session, which
 * offers the upgrade for a locked choice.
 */
export function connectReadingSession(snapshot: SnapshotFrom<typeof readingSessionMachine>, send: (event: ReadingSessionEvent) => void) {
  const { context } = snapshot;
  const primaryEdition = editionFor(context.publication, context.primary);
  const secondaryEdition = editionFor(context.publication, context.secondary);
  const max = maxPositionOf(context);
  const shortcuts = primaryEdition?.shortcuts ?? context.publication?.shortcuts ?? [];
  const currentShortcut = shortcutAt(shortcuts, context.position);
  return {
    isLoading: snapshot.matches('loading'),
    isReading: snapshot.matches('reading') || snapshot.matches('refreshing'),
    isUnavailable: snapshot.matches('unavailable'),
    /** The address names a position no edition has ('Passage not found'). */
    isPassageNotFound: snapshot.matches('passageNotFound'),
    error: context.error,
    publication: context.publication,
    primary: context.primary,
    secondary: context.secondary,
    primaryEdition,
    secondaryEdition,
    /** The requested edition does not exist (the missing-edition flow takes over). */
    primaryMissing: !!context.publication && !!context.primary && !primaryEdition,
    secondaryMissing: !!context.publication && !!context.secondary && !secondaryEdition,
    position: context.position,
    maxPosition: max,
    canGoPrevious: context.position > 1,
    canGoNext: context.position < max,
    shortcuts,
    currentShortcut,
    recentLanguages: context.recentLanguages,
    next: () => send({ type: 'page.next' }),
    previous: () => send({ type: 'page.previous' }),
    goTo: (position: number) => send({ type: 'page.goto', position }),
    changeLanguage: (slot: Slot, language: string) => send({ type: 'language.change', slot, language }),
    changeLevel: (slot: Slot, level: Level) => send({ type: 'level.change', slot, level }),
    showSecondary: (choice: EditionChoice) => send({ type: 'secondary.set', choice }),
    hideSecondary: () => send({ type: 'secondary.clear' }),
  };
}
