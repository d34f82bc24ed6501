/**
 * The reader screen (SPEC §2 Reader screen): thin views over the engine's reading session. It selects machine
 * snapshots, renders what their connect APIs say, and sends events; no reading rule lives here.
 */
import { memo, useCallback, useDeferredValue, useEffect, useMemo, type ComponentProps } from 'react';
import type { ReadingTypeSettings } from '../../../domain/readingType';
import type { Level } from '../../../domain/levels';
import { useStableCallback } from '../../hooks/useStableCallback';
import { connectReaderColumn } from '../../../machines/readerColumn';
import { connectReadingSession, type EditionChoice, type Slot } from '../../../machines/readingSession';
import type { ReaderEngineSnapshot } from '../../../engine/createReaderEngine';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { getEngineSnapshot } from '../../engine/store';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { useMinWidth } from '../../platform/media';
import { ReaderBottomBar } from './ReaderBottomBar';
import { ReaderColumn } from './ReaderColumn';
import { useArrowKeyPaging, useToolbarActivity, useUserFeatures } from './readerHooks';
import { ReaderLayout } from './ReaderLayout';
import { EngineToasts, PremiumDialog } from './ReaderOverlays';
import { ReaderToolbar, type ReaderControls } from './ReaderToolbar';
import { PassageNotFound, PassageSkeleton } from './PassageStatus';
import { publicationPath } from '../../../domain/routes';
import { ONE_COLUMN_CLASS, ONE_COLUMN_WIDTH, TWO_COLUMNS_CLASS } from './readerStyles';
import { ReleaseFirstScreen } from '../../platform/firstScreen';
import { rulerLineCount } from '../../../domain/readingRuler';
import '../../fonts/reading';
import { DeferredDownloadButton } from '../../offline/DeferredDownloadButton';
import { useIdlePrefetch } from './idlePrefetch';

const noop = () => {};

/**
 * What the screen shows of the session: all but the position and what follows from it (the bottom bar's page,
 * the toolbar's section), which `ReaderPaging` and `ReaderToolbarAtSection` select themselves. A page turn then
 * renders those and the columns, not the screen, its header and its menus.
 */
function sessionView(snapshot: ReaderEngineSnapshot) {
  const session = connectReadingSession(snapshot.session, noop);
  return {
    isReading: session.isReading,
    isPassageNotFound: session.isPassageNotFound,
    publication: session.publication,
    primary: session.primary,
    secondary: session.secondary,
    primaryEdition: session.primaryEdition,
    secondaryEdition: session.secondaryEdition,
    shortcuts: session.shortcuts,
    recentLanguages: session.recentLanguages,
  };
}

/** The session's position and paging, for the bottom bar. */
function sessionPaging(snapshot: ReaderEngineSnapshot) {
  const { position, maxPosition, canGoPrevious, canGoNext } = connectReadingSession(snapshot.session, noop);
  return { position, maxPosition, canGoPrevious, canGoNext };
}

/** Memoized: a new address (the engine's own, after a page turn) with the same slug re-renders nothing here. */
export const ReaderScreen = memo(function ReaderScreen({ slug }: { slug: string }) {
  const send = useEngineSend();
  const session = useEngine(sessionView);
  const needsGroupCode = useEngine((s) => connectReaderColumn(s.primary.column, noop).needsGroupCode);
  const playingSlot = useEngine((s) => s.readerPlayer?.slot ?? 'primary');
  const primaryAudioLocked = useEngine((s) => s.primary.locks.audioLocked);
  const secondaryAudioLocked = useEngine((s) => s.secondary.locks.audioLocked);
  const sendSession = useChildSend('session');
  // Paging, the second column, a language or a level go to the session, which may offer the upgrade instead. Its
  // commands are connected when called: they send, and read nothing of the snapshot.
  const commands = useCallback(() => connectReadingSession(getEngineSnapshot()!.session, sendSession), [sendSession]);
  const settings = useEngine((s) => s.readerSettings, Object.is);
  const twoColumns = useEngine((s) => s.columns, Object.is);
  const isMd = useMinWidth('md');
  const isLg = useMinWidth('lg');
  // Whether two columns fit is a fact of the screen; whether they show is the engine's rule.
  useEffect(() => send({ type: 'viewport.changed', wide: isLg }), [send, isLg]);

  // Stable handlers, so the memoized toolbar and column controls do not re-render on a page turn.
  const goTo = useStableCallback((position: number) => commands().goTo(position));
  const previous = useStableCallback(() => commands().previous());
  const next = useStableCallback(() => commands().next());
  const changeLanguage = useStableCallback((slot: Slot, code: string) => commands().changeLanguage(slot, code));
  const changeLevel = useStableCallback((slot: Slot, level: Level) => commands().changeLevel(slot, level));
  // Illustrated mode (SPEC §2): the picture beside the text from medium widths; its own default font size.
  const illustratedTitle = session.publication?.renderingMode === 'ILLUSTRATED';
  const setFontSize = useStableCallback((size: typeof settings.fontSize) =>
    send({ type: 'settings.reader', patch: illustratedTitle ? { illustratedModeFontSize: size } : { fontSize: size } }),
  );
  const setColumns = useStableCallback((columns: typeof settings.columns) => send({ type: 'settings.reader', patch: { columns } }));
  const setRuler = useStableCallback((readingRuler: typeof settings.readingRuler) => send({ type: 'settings.reader', patch: { readingRuler } }));
  const setReadingType = useStableCallback((patch: Partial<ReadingTypeSettings>) => send({ type: 'settings.reader', patch }));
  const setWordMode = useStableCallback((wordMode: boolean) => send({ type: 'settings.reader', patch: { wordMode } }));
  const { readingFont, textSpacing, pageTint } = settings;
  const page = useMemo(() => ({ readingFont, textSpacing, pageTint }), [readingFont, textSpacing, pageTint]);
  const fontSize = illustratedTitle ? settings.illustratedModeFontSize : settings.fontSize;
  // The settings the toolbar's menus show and change: spread into its props, so its memo compares each one.
  const controls: ReaderControls = {
    fontSize,
    onFontSize: setFontSize,
    ruler: settings.readingRuler,
    onRuler: setRuler,
    readingType: page,
    onReadingType: setReadingType,
    wordMode: settings.wordMode,
    onWordMode: setWordMode,
  };

  const publication = session.publication;
  const sessionReady = session.isReading && publication !== null && publication.slug === slug && session.primary !== null;
  // The reader's first render with its passage (skeleton → text, toolbar and pickers) is a background render that
  // React does in slices of a few milliseconds, not in one task: the engine's snapshot changes reach this view as a
  // blocking update, and `useDeferredValue` lets that update keep the skeleton (or the server's first screen) for a
  // moment while the rest renders in the background. Later updates (a page turn) are not deferred: `ready` stays true.
  const deferredReady = useDeferredValue(sessionReady);
  const ready = sessionReady && deferredReady;
  useDocumentTitle(ready ? publication.title : null);
  useToolbarActivity();
  useUserFeatures();
  useArrowKeyPaging(previous, next, ready);
  useIdlePrefetch(ready);

  // Two columns (SPEC §2 Two-column mode): the engine says whether they may and do show.
  const showSecondary = ready && twoColumns.showSecondary;

  const publicationHref = publication && publication.slug === slug ? publicationPath(publication.slug, publication.version) : publicationPath(slug);
  if (session.isPassageNotFound && publication) {
    return (
      <ReaderLayout title={publication.title} author={publication.author} publicationHref={publicationHref} page={page}>
        <div className="px-4 pt-16 sm:px-6">
          <PassageNotFound />
        </div>
        <ReleaseFirstScreen />
      </ReaderLayout>
    );
  }
  if (!ready) {
    return (
      <ReaderLayout title={null} author={null} publicationHref={publicationHref}>
        <div className="mx-auto max-w-[44rem] px-4 pt-16 sm:px-6">
          <PassageSkeleton showSpinner={false} showRefresh={false} onRefresh={noop} />
        </div>
      </ReaderLayout>
    );
  }

  const illustrated = illustratedTitle && isMd;
  const primary = session.primary!;

  const toolbar = (
    <ReaderToolbarAtSection
      shortcuts={session.shortcuts}
      shortcutLanguage={session.primaryEdition?.language.code ?? primary.language}
      onShortcut={goTo}
      {...controls}
      columns={showSecondary ? 'two-column' : 'one-column'}
      onColumns={setColumns}
      showColumns={twoColumns.allowed}
    />
  );
  const bottomBar = needsGroupCode ? undefined : (
    <ReaderPaging
      onPrevious={previous}
      onNext={next}
      onGoTo={goTo}
      audioEnabled={(playingSlot === 'secondary' ? session.secondaryEdition : session.primaryEdition)?.audioEnabled ?? false}
      audioLocked={playingSlot === 'secondary' ? secondaryAudioLocked : primaryAudioLocked}
    />
  );

  const column = (slot: 'primary' | 'secondary', choice: EditionChoice, name: string) => (
    <ReaderColumn
      key={slot}
      slot={slot}
      name={name}
      publication={publication}
      choice={choice}
      edition={slot === 'primary' ? session.primaryEdition : session.secondaryEdition}
      recentLanguages={session.recentLanguages}
      illustrated={illustrated && !showSecondary}
      fontSize={fontSize}
      rulerLines={rulerLineCount(settings.readingRuler)}
      wordMode={settings.wordMode}
      onLanguage={changeLanguage}
      onLevel={changeLevel}
    />
  );

  return (
    <ReaderLayout
      title={publication.title}
      author={publication.author}
      publicationHref={publicationHref}
      toolbar={toolbar}
      bottomBar={bottomBar}
      page={page}
      headerActions={session.primaryEdition && !needsGroupCode ? <DeferredDownloadButton publication={publication} edition={session.primaryEdition} /> : null}
    >
      {showSecondary ? (
        <div className={TWO_COLUMNS_CLASS}>
          {column('primary', primary, 'Left column')}
          {column('secondary', session.secondary!, 'Right column')}
        </div>
      ) : (
        <div className={`${ONE_COLUMN_CLASS} ${ONE_COLUMN_WIDTH[illustrated ? 'illustrated' : 'text']}`}>
          {column('primary', primary, 'Passage column')}
        </div>
      )}
      <EngineToasts />
      <PremiumDialog />
    </ReaderLayout>
  );
});

/** The toolbar with the section the session is in, selected here so that a page turn renders only this. */
function ReaderToolbarAtSection(props: Omit<ComponentProps<typeof ReaderToolbar>, 'currentShortcut'>) {
  const current = useEngine((s) => connectReadingSession(s.session, noop).currentShortcut, Object.is);
  // The section a turn lands in reaches the Sections picker in a render after the passage's own (a React Aria
  // Select re-renders its whole list): the turn's frame shows the text, the picker follows a moment later.
  const currentShortcut = useDeferredValue(current);
  return <ReaderToolbar {...props} currentShortcut={currentShortcut} />;
}

/** The bottom bar with the session's position: a page turn renders it and the columns, not the screen around them. */
function ReaderPaging(props: Omit<ComponentProps<typeof ReaderBottomBar>, keyof ReturnType<typeof sessionPaging>>) {
  const paging = useEngine(sessionPaging);
  return <ReaderBottomBar {...props} {...paging} />;
}
