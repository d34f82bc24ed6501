/**
 * Listen page (SPEC §2 route table; §4 Audio control state: listen flow),
 * /listen/{slug}/{version}/{editionSlug}/{position}: the listen-audio machine's screen. The view sends
 * 'listen.start' (the edition, the position, auto-play from the history state) and 'listen.page' when the
 * address moves; the engine's listen flow (src/machines/listenFlow) fetches and plays the narration and, on
 * auto-advance, pushes the next passage's address, which this view then shows. It renders what
 * connectListenAudio returns (state label, play/pause, auto-play), the clock in mm:ss with a seek bar, and links
 * to the neighbouring passages. An edition without audio says 'Audio not available' and play is disabled.
 *
 * Gating (SPEC §6): a passage whose text is gated shows the license panel or the class-code panel instead of its
 * text, and nothing plays; narration that is locked for this reader (the engine's listen driver decides, with
 * src/domain/access.ts) shows 'Upgrade to access additional audio features' and the play control offers
 * 'Unlock Premium Audio'. A premium title the reader may not open goes back to the catalog (SPEC §8).
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Switch } from 'react-aria-components';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { ApiError } from '../../../api';
import { AUDIO_NOT_AVAILABLE, PASSAGE_NOT_FOUND } from '../../../domain/constants';
import { parsePositionSegment } from '../../../domain/readerUrl';
import { listenPath, readerPath as readerAddress } from '../../../domain/routes';
import type { Edition } from '../../../domain/schemas';
import { BookOpenIcon, ChevronLeftIcon, ChevronRightIcon } from '../../components/Icons';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { isMissingPublication } from '../publication/publicationView';
import { gateOfError, LOCKED_AUDIO_TOOLTIP } from '../../../domain/locks';
import { connectClassCode } from '../../../machines/classCode';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { GroupCodePanel, LicensePanel, PassageNotFound } from '../reader/PassageStates';
import { readingPage } from '../reader/readingPage';
import { ListenClock, PauseGlyph, PlayGlyph, useListenFlow, usePrefetchNeighbours } from './listenFlow';
import { ListenHeading, ListenQueryState, Thumbnail, useListenEdition, type ListenHistoryState } from './SelectPassageScreen';
import '../../fonts/scripts';

/** Whether the listen flow was opened with auto-play flagged (history state { autoPlay: true }). */
function historyAutoPlay(): boolean {
  const state = window.history.state as ListenHistoryState | null;
  return state?.autoPlay === true;
}

function ListenContent({ slug, version, editionSlug, position }: { slug: string; version: string; editionSlug: string; position: string }) {
  const { query, ref, publication, edition } = useListenEdition(slug, version, editionSlug);
  const parsed = parsePositionSegment(position);
  useDocumentTitle(publication ? `Listen: ${publication.title}` : isMissingPublication(query.error) ? 'Not found' : 'Listen');

  if (!parsed.canonical) return <Redirect to={listenPath(slug, version, editionSlug, parsed.position)} replace />;
  if (!publication) return <ListenQueryState query={query} />;
  if (!edition || parsed.position < 1) return <PassageNotFound publication={publication} />;
  if (edition.passageCount > 0 && parsed.position > edition.passageCount) {
    return <Redirect to={listenPath(slug, version, editionSlug, edition.passageCount)} replace />;
  }

  return (
    <div className="mx-auto grid max-w-4xl gap-8 md:grid-cols-[minmax(0,14rem)_1fr] md:gap-10">
      <div className="flex items-start gap-4 md:block">
        <Thumbnail publication={publication} className="w-24 shrink-0 md:w-full" />
        <div className="min-w-0 md:hidden">
          <ListenHeading publication={publication} edition={edition} requested={ref} />
        </div>
      </div>
      <div className="min-w-0">
        <div className="hidden md:block">
          <ListenHeading publication={publication} edition={edition} requested={ref} />
        </div>
        <ListenPlayer slug={slug} version={version} editionSlug={editionSlug} edition={edition} position={parsed.position} />
      </div>
    </div>
  );
}

function ListenPlayer({
  slug,
  version,
  editionSlug,
  edition,
  position,
}: {
  slug: string;
  version: string;
  editionSlug: string;
  edition: Edition;
  position: number;
}) {
  const passageCount = edition.passageCount;
  const send = useEngineSend();
  const sendDialog = useChildSend('premiumDialog');
  const { listen, currentTime, duration, seek, audio } = useListenFlow({
    edition,
    position,
    autoPlay: historyAutoPlay,
    basePath: listenPath(slug, version, editionSlug),
  });

  const passage = useQuery(queries.excerpt(slug, { publicationVersion: version, language: edition.language.code, level: edition.level, position }));
  usePrefetchNeighbours(slug, version, edition, position);
  // The passage's text is gated: its panel shows instead, and the narration is not offered.
  const gate = passage.isError ? gateOfError(passage.error) : null;
  const audioAvailable = edition.audioEnabled && gate === null;
  const audioLocked = audioAvailable && audio === 'locked';

  const state: ListenHistoryState = { autoPlay: listen?.autoPlay ?? false };
  const previous = position > 1 ? listenPath(slug, version, editionSlug, position - 1) : null;
  const next = position < passageCount ? listenPath(slug, version, editionSlug, position + 1) : null;
  const readerPath = readerAddress({ slug, version, primary: { language: edition.language.code, level: edition.level }, position });

  return (
    <div className="mt-6 space-y-6">
      <section aria-label="Listen player" className={`${cardStyles} p-4 sm:p-5`}>
        <div className="flex flex-wrap items-center gap-x-5 gap-y-4">
          <Button
            isDisabled={!audioAvailable || !listen}
            onPress={() => (audioLocked ? sendDialog({ type: 'premiumDialog.open', feature: 'Audio' }) : listen?.toggle())}
            aria-label={audioAvailable && listen?.isPlaying ? 'Pause' : 'Play'}
            className="grid size-14 shrink-0 place-items-center rounded-full bg-primary-900 text-white shadow-sm transition-colors data-[disabled]:cursor-not-allowed data-[disabled]:bg-primary-300 data-[hovered]:bg-primary-800 data-[pressed]:bg-primary-950"
          >
            {audioAvailable && listen?.isPlaying ? <PauseGlyph /> : <PlayGlyph />}
          </Button>
          <div className="min-w-0 flex-1">
            <p className="text-xs font-semibold tracking-wider text-ink-muted uppercase">
              Passage {position} of {passageCount}
            </p>
            <p role="status" className="mt-0.5 text-lg font-semibold text-primary-900">
              {gate || !audioAvailable ? AUDIO_NOT_AVAILABLE : audioLocked ? LOCKED_AUDIO_TOOLTIP : (listen?.label ?? 'Loading')}
            </p>
          </div>
          <Switch
            isSelected={listen?.autoPlay ?? false}
            isDisabled={!listen}
            onChange={(value) => listen?.setAutoPlay(value)}
            className="group inline-flex basis-full cursor-pointer items-center gap-3 border-t border-line pt-3 text-sm font-medium text-ink data-[disabled]:cursor-not-allowed sm:basis-auto sm:border-0 sm:pt-0"
          >
            <span
              aria-hidden="true"
              className="flex h-6 w-11 shrink-0 items-center rounded-full border border-line-strong bg-paper px-0.5 transition-colors group-data-[selected]:border-primary-900 group-data-[selected]:bg-primary-900 group-data-[focus-visible]:outline-solid group-data-[focus-visible]:outline-3 group-data-[focus-visible]:outline-offset-2 group-data-[focus-visible]:outline-focus"
            >
              <span className="size-5 rounded-full bg-white shadow-sm ring-1 ring-line-strong transition-transform group-data-[selected]:translate-x-5 group-data-[selected]:ring-primary-900" />
            </span>
            Auto-play
          </Switch>
        </div>
        {audioAvailable && !audioLocked && <ListenClock currentTime={currentTime} duration={duration} onSeek={seek} className="mt-4" />}
      </section>

      <section aria-label={`Passage ${position}`} lang={edition.language.code} dir={edition.language.rightToLeft ? 'rtl' : 'ltr'} className="min-h-40">
        {passage.data?.sectionName && <h2 className="mb-3 font-sans text-sm font-semibold tracking-wide text-primary-700">{passage.data.sectionName}</h2>}
        {passage.isPending && (
          <div aria-hidden="true" className="animate-pulse space-y-3">
            <div className="h-5 rounded bg-primary-100/60" />
            <div className="h-5 rounded bg-primary-100/60" />
            <div className="h-5 w-2/3 rounded bg-primary-100/60" />
          </div>
        )}
        {gate === 'licenseRequired' && (
          <div lang="en" dir="ltr">
            <LicensePanel />
          </div>
        )}
        {gate === 'groupCodeRequired' && (
          <div lang="en" dir="ltr">
            <ListenGroupCodePanel />
          </div>
        )}
        {passage.isError && gate === null && (
          <p lang="en" dir="ltr" className="text-ink-muted">
            {passage.error instanceof ApiError && passage.error.status === 404 ? PASSAGE_NOT_FOUND : passage.error.message}
          </p>
        )}
        {passage.isSuccess && (
          <p className="font-serif text-xl leading-relaxed text-ink sm:text-[1.3rem]">
            {passage.data.text}
          </p>
        )}
      </section>

      <nav aria-label="Passages" className="flex items-center justify-between gap-3 border-t border-line pt-5">
        <StepLink href={previous} state={state} direction="previous" />
        <StepLink href={next} state={state} direction="next" />
      </nav>

      <p className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <Link href={listenPath(slug, version, editionSlug)} className={linkStyles}>
          Choose another passage
        </Link>
        <Link href={readerPath} className={`${linkStyles} inline-flex items-center gap-1.5`}>
          <BookOpenIcon size={16} />
          Read this passage
        </Link>
      </p>
    </div>
  );
}

/** SPEC §6: 'Enter Class Code or Sign In', for a passage shared with a class; the code goes to the engine. */
function ListenGroupCodePanel() {
  const send = useChildSend('classCode');
  const classCode = connectClassCode(
    useEngine((s) => s.classCode, Object.is),
    send,
  );
  const [path] = useLocation();
  const search = useSearch();
  return (
    <GroupCodePanel
      here={search ? `${path}?${search}` : path}
      isSubmitting={classCode.isVerifying}
      onSubmit={(code) => send({ type: 'classCode.submit', code, source: 'reader' })}
    />
  );
}

function StepLink({ href, state, direction }: { href: string | null; state: ListenHistoryState; direction: 'previous' | 'next' }) {
  const label = direction === 'previous' ? 'Previous passage' : 'Next passage';
  const content =
    direction === 'previous' ? (
      <>
        <ChevronLeftIcon size={18} />
        <span>Previous</span>
      </>
    ) : (
      <>
        <span>Next</span>
        <ChevronRightIcon size={18} />
      </>
    );
  if (!href) {
    return (
      <span role="link" aria-disabled="true" aria-label={label} className={`${buttonStyles.secondary} cursor-not-allowed opacity-50`}>
        {content}
      </span>
    );
  }
  return (
    <Link href={href} state={state} aria-label={label} className={buttonStyles.secondary}>
      {content}
    </Link>
  );
}

/** The screen in the shared layout (navbar, footer), with the reader's features: the route renders it bare. */
export const ListenScreen = readingPage(ListenContent);

export default ListenScreen;
