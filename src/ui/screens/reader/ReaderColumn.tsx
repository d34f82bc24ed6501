/**
 * One passage column (SPEC §2 Reader screen, each passage column): the language and level dropdowns, the
 * 'Listen' toggle, the section header, the passage text with its position number, and the image. The passage
 * carries `lang` and `dir`, so Arabic and Urdu read right to left.
 */
import { memo, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { sanitizeDecodedHtml } from '../../../domain/decode';
import { LANGUAGES } from '../../../domain/languages';
import { LEVEL_LABELS, type Level } from '../../../domain/levels';
import { levelsForLanguage } from '../../../domain/readerColumns';
import { sanitizePassageHtml, sectionHeader } from '../../../domain/passageText';
import type { Edition, Language, Passage, Publication } from '../../../domain/schemas';
import type { SlotView } from '../../../engine/createReaderEngine';
import type { ReaderSettings } from '../../../engine/settings';
import { connectClassCode } from '../../../machines/classCode';
import { DECODE_PHONICS_NOTE } from '../../../machines/highlightDecode';
import { connectLevelIndicator } from '../../../machines/levelIndicator';
import { connectReaderColumn, PASSAGE_LOADING_TEXT } from '../../../machines/readerColumn';
import type { FollowedColumn } from '../../../machines/readingSession/readingSession.rules';
import type { EditionChoice, Slot } from '../../../machines/readingSession';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { LanguagePicker } from './LanguagePicker';
import { LevelPicker } from './LevelPicker';
import { ListenToggle } from './ListenToggle';
import { useAlignedHighlight, useSpeechHighlight } from './useSpeechHighlight';
import './reader.css';
import './alignedHighlight.css';
import '../../fonts/scripts';
import { CreatingEdition, ErrorPanel, PassageSkeleton } from './PassageStatus';
import { COLUMN_CONTROLS_CLASS, FONT_SIZE_CLASSES, PASSAGE_NUMBER_BESIDE_CLASS, PASSAGE_NUMBER_CLASS, PASSAGE_TEXT_CLASS, SECTION_HEADER_CLASS } from './readerStyles';
import { useReleaseFirstScreen } from '../../platform/firstScreen';
import { useWordMode } from './WordMode';
import { useCurrentAddress } from '../../hooks/useCurrentAddress';
import { lazyPart } from '../../components/lazyPart';

/**
 * What only some modes and states show, each a chunk of its own fetched when it first shows (or earlier, when the
 * browser is idle: idlePrefetch.ts): the reading ruler, the decode legend, and a locked passage's panels.
 */
export const ReadingRuler = lazyPart(() => import('./ReadingRuler').then((m) => m.ReadingRuler));
export const DecodeLegend = lazyPart(() => import('./DecodeLegend').then((m) => m.DecodeLegend));
export const GroupCodePanel = lazyPart(() => import('./PassageStates').then((m) => m.GroupCodePanel));
export const LicensePanel = lazyPart(() => import('./PassageStates').then((m) => m.LicensePanel));

const noop = () => {};

function languageOf(code: string, edition: Edition | undefined): Language {
  if (edition) return edition.language;
  const known = LANGUAGES.find((l) => l.code === code);
  return (known as Language | undefined) ?? { code: code as Language['code'], name: code, rightToLeft: false };
}

/** Memoized: a turn re-renders it through its own slot's view, not through the screen above it. */
export const ReaderColumn = memo(function ReaderColumn({
  slot,
  name,
  publication,
  choice,
  edition,
  recentLanguages,
  illustrated,
  fontSize,
  rulerLines,
  wordMode,
  onLanguage,
  onLevel,
}: {
  slot: Slot;
  /** The column's accessible name. */
  name: string;
  publication: Publication;
  choice: EditionChoice;
  edition: Edition | undefined;
  recentLanguages: readonly string[];
  illustrated: boolean;
  fontSize: ReaderSettings['fontSize'];
  /** The reading ruler's band in lines; 0: off. */
  rulerLines: number;
  /** Word mode (docs/reading-aids.md "Tap a word"): a tapped word is said. */
  wordMode: boolean;
  onLanguage: (slot: Slot, code: string) => void;
  onLevel: (slot: Slot, level: Level) => void;
}) {
  const view = useEngine((s) => s[slot]);
  const language = languageOf(choice.language, edition);

  return (
    <section aria-label={name} className="min-w-0">
      <ColumnControls
        slot={slot}
        publication={publication}
        language={language}
        level={choice.level}
        edition={edition}
        recentLanguages={recentLanguages}
        locks={view.locks}
        onLanguage={onLanguage}
        onLevel={onLevel}
      />
      <ColumnBody {...{ slot, view, edition, language, choice, illustrated, fontSize, rulerLines, wordMode }} isMissing={!edition} />
    </section>
  );
});

/** The column's language and level dropdowns and its Listen toggle: memoized, so a page turn leaves them be. */
const ColumnControls = memo(function ColumnControls({
  slot,
  publication,
  language,
  level,
  edition,
  recentLanguages,
  locks,
  onLanguage,
  onLevel,
}: {
  slot: Slot;
  publication: Publication;
  language: Language;
  level: Level;
  edition: Edition | undefined;
  recentLanguages: readonly string[];
  locks: SlotView['locks'];
  onLanguage: (slot: Slot, code: string) => void;
  onLevel: (slot: Slot, level: Level) => void;
}) {
  const sendColumn = useChildSend(`column.${slot}`);
  const sendDialog = useChildSend('premiumDialog');
  const sendIndicator = useChildSend('levelIndicator');
  // Only the facts these controls show: the player's and the indicator's snapshots change on every page turn.
  const isPulsing = useEngine((s) => connectLevelIndicator(s.levelIndicator, noop).isPulsing);
  const isListening = useEngine((s) => s[slot].listening);
  const hoverIndicator = useCallback(() => sendIndicator({ type: 'indicator.hover' }), [sendIndicator]);
  // The primary column's level dropdown carries the indicator: its pulse runs from when it is on screen.
  useEffect(() => {
    if (slot !== 'primary') return;
    sendIndicator({ type: 'indicator.shown' });
    return () => sendIndicator({ type: 'indicator.hidden' });
  }, [slot, sendIndicator]);
  const levels = useMemo(
    () => levelsForLanguage(publication.editions, publication.levels, language.code),
    [publication.editions, publication.levels, language.code],
  );
  const current = useMemo(() => ({ code: language.code, name: language.name }), [language.code, language.name]);
  return (
    <div className={COLUMN_CONTROLS_CLASS}>
      <LanguagePicker
        label={slot === 'primary' ? 'Language' : 'Second column language'}
        current={current}
        languages={publication.languages}
        recentCodes={recentLanguages}
        lockedCodes={locks.lockedLanguages}
        onChange={(code) => onLanguage(slot, code)}
      />
      <LevelPicker
        label={slot === 'primary' ? 'Reading level' : 'Second column reading level'}
        level={level}
        levels={levels}
        lockedLevels={locks.lockedLevels}
        isPulsing={slot === 'primary' && isPulsing}
        onHover={slot === 'primary' ? hoverIndicator : undefined}
        onChange={(next) => onLevel(slot, next)}
      />
      <div className="ms-auto">
        <ListenToggle
          audioEnabled={edition?.audioEnabled ?? false}
          audioLocked={locks.audioLocked}
          isSelected={isListening}
          onChange={(on) => sendColumn({ type: 'audio.listen', on })}
          onUpgrade={() => sendDialog({ type: 'premiumDialog.open', feature: 'Audio' })}
        />
      </div>
    </div>
  );
});

function ColumnBody({
  slot,
  view,
  edition,
  language,
  choice,
  illustrated,
  fontSize,
  rulerLines,
  wordMode,
  isMissing,
}: {
  slot: Slot;
  view: SlotView;
  edition: Edition | undefined;
  language: Language;
  choice: EditionChoice;
  illustrated: boolean;
  fontSize: ReaderSettings['fontSize'];
  rulerLines: number;
  wordMode: boolean;
  isMissing: boolean;
}) {
  const loading = connectReaderColumn(view.column, useChildSend(`column.${slot}`));
  const showsPassage = loading.isLoaded && view.passage !== null;
  // The server's first screen (server/http/page.ts) gives way once this column shows anything but a skeleton, or a
  // skeleton slow enough to offer 'Refresh'.
  useReleaseFirstScreen(
    slot === 'primary' && (isMissing || loading.error !== null || loading.needsGroupCode || loading.needsLicense || showsPassage || loading.showRefresh),
  );

  let body;
  if (isMissing) {
    body = loading.missingError ? <ErrorPanel title={PASSAGE_LOADING_TEXT.notFound} detail={loading.missingError.message} /> : <CreatingEdition />;
  } else if (loading.error) {
    body = <ErrorPanel title={loading.error.title} />;
  } else if (loading.needsGroupCode) {
    body = (
      <Suspense fallback={null}>
        <ColumnGroupCodePanel />
      </Suspense>
    );
  } else if (loading.needsLicense) {
    body = (
      <Suspense fallback={null}>
        <LicensePanel />
      </Suspense>
    );
  } else if (showsPassage && view.passage) {
    // Decoded text, words lit as they play, or following the other column: the engine's rule (readerSystem.rules.ts
    // columnDisplay).
    return (
      <PassageView
        slot={slot}
        passage={view.passage}
        decoded={view.display.decoded}
        highlight={view.display.highlight}
        follows={view.display.follows}
        language={language}
        levelLabel={LEVEL_LABELS[choice.level]}
        illustrated={illustrated}
        fontSize={fontSize}
        passageCount={edition?.passageCount ?? view.passage.position}
        rulerLines={rulerLines}
        wordMode={wordMode}
      />
    );
  } else {
    body = <PassageSkeleton showSpinner={loading.showSpinner} showRefresh={loading.showRefresh} onRefresh={loading.refresh} />;
  }
  return <div className="py-2">{body}</div>;
}

/** The class-code form in a column; it alone needs the address (it returns here), so a turn's new address re-renders only it. */
function ColumnGroupCodePanel() {
  const send = useChildSend('classCode');
  const here = useCurrentAddress();
  const classCodeSnap = useEngine((s) => s.classCode, Object.is);
  const classCode = connectClassCode(classCodeSnap, send);
  return (
    <GroupCodePanel
      here={here}
      isSubmitting={classCode.isVerifying}
      onSubmit={(code) => send({ type: 'classCode.submit', code, source: 'reader' })}
    />
  );
}

/** Memoized: renders again only when what it shows changes. */
const PassageView = memo(function PassageView({
  slot,
  passage,
  decoded,
  highlight,
  follows,
  language,
  levelLabel,
  illustrated,
  fontSize,
  passageCount,
  rulerLines,
  wordMode,
}: {
  slot: Slot;
  passage: Passage;
  /** Show the decoded text (dc-* markup) and its legend. */
  decoded: boolean;
  /** Highlight the sentence and word being spoken. */
  highlight: boolean;
  /** The playing column this one follows in two columns (it lights what matches the sentence spoken), or null. */
  follows: FollowedColumn | null;
  language: Language;
  levelLabel: string;
  illustrated: boolean;
  fontSize: ReaderSettings['fontSize'];
  passageCount: number;
  /** The reading ruler's band in lines; 0: off. */
  rulerLines: number;
  /** Word mode: taps, the word cursor and the word's menu (WordMode.tsx). */
  wordMode: boolean;
}) {
  const header = sectionHeader(passage.partName, passage.sectionName);
  const textRef = useRef<HTMLDivElement>(null);
  const html = useMemo(
    () => (decoded && passage.textDecoded ? sanitizeDecodedHtml(passage.textDecoded) : sanitizePassageHtml(passage.text)),
    [decoded, passage.textDecoded, passage.text],
  );
  useSpeechHighlight({ containerRef: textRef, html, marks: passage.audio?.speechMarks, locale: language.code, active: highlight });
  // The playing column's passage, as that column renders it in highlight mode (never decoded).
  const followed = useEngine((s) => (follows ? s[follows.slot].passage : null), Object.is);
  const followedHtml = useMemo(() => (followed ? sanitizePassageHtml(followed.text) : null), [followed]);
  useAlignedHighlight({
    containerRef: textRef,
    html,
    locale: language.code,
    sourceHtml: followedHtml,
    sourceMarks: followed?.audio?.speechMarks,
    sourceLocale: follows?.language ?? null,
  });
  const words = useWordMode({
    textRef,
    slot,
    enabled: wordMode,
    html,
    passageText: passage.text,
    locale: language.code,
    rightToLeft: language.rightToLeft,
  });
  const { className: wordModeClass, ...wordModeProps } = words.textProps;
  const dir = language.rightToLeft ? 'rtl' : 'ltr';
  const image = passage.imageUrl ? (
    <figure className={illustrated ? 'flex justify-center' : 'mt-10 flex justify-center'}>
      <img
        src={passage.imageUrl}
        alt={passage.imageAlt ?? ''}
        className="max-h-[400px] w-full max-w-[400px] rounded-2xl bg-surface object-contain shadow-[0_1px_3px_rgba(16,58,58,0.08)]"
      />
    </figure>
  ) : null;
  const textBlock = (
    <div className="relative">
      <p
        title={`Passage ${passage.position} of ${passageCount}`}
        className={`${PASSAGE_NUMBER_CLASS} ${illustrated ? 'text-center' : PASSAGE_NUMBER_BESIDE_CLASS}`}
        aria-hidden="true"
        data-testid="passage-number"
      >
        {passage.position}
      </p>
      <div
        ref={textRef}
        {...wordModeProps}
        data-passage-text=""
        data-position={passage.position}
        data-decoded={decoded ? '' : undefined}
        className={`${PASSAGE_TEXT_CLASS} ${FONT_SIZE_CLASSES[fontSize]} ${illustrated ? 'text-center' : ''} ${wordModeClass ?? ''}`}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {rulerLines > 0 && (
        <Suspense fallback={null}>
          <ReadingRuler textRef={textRef} lineCount={rulerLines} html={html} />
        </Suspense>
      )}
      {words.overlay}
    </div>
  );
  return (
    <article lang={language.code} dir={dir} aria-label={`Passage ${passage.position}, ${language.name} ${levelLabel}`} className="py-2">
      {header && <p className={SECTION_HEADER_CLASS}>{header}</p>}
      {illustrated && image ? (
        <div className="grid items-center gap-10 md:grid-cols-2">
          {image}
          {textBlock}
        </div>
      ) : (
        <>
          {textBlock}
          {image}
        </>
      )}
      {decoded && (
        <Suspense fallback={null}>
          <DecodeLegend note={DECODE_PHONICS_NOTE} />
        </Suspense>
      )}
    </article>
  );
});
