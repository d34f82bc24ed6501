/**
 * Public teaser page (SPEC §2), /teaser/{slug}/{version}/{language}:{level}/{position}: the cover, title, author,
 * edition (language and level), version, audio length and percent complete; a chapter dropdown; one line of the
 * passage (plain text from the excerpt endpoint); previous / next and a jump input (positive whole numbers); the
 * audio bar; and, for visitors, 'Sign In' (back to the reader) and a class-code entry. The class code goes to
 * the engine's class-code machine and its answer comes back as a toast from the toasts machine.
 *
 * Gating (SPEC §6): an excerpt the reader may not see shows 'This content requires a School License' (with the
 * licensing link) or 'Enter Class Code or Sign In' (the class-code entry below) instead of its text, and its audio
 * is not offered; narration locked for this reader offers 'Unlock Premium Audio'. A premium title the reader may
 * not open goes back to the reader's library with 'Unlock Premium Novels' (PublicationError, SPEC §8).
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  Button,
  FieldError,
  Form,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  ProgressBar,
  Select,
  SelectValue,
  TextField,
} from 'react-aria-components';
import { Link, Redirect, useLocation } from 'wouter';
import { ApiError } from '../../../api';
import { formatAudioLength } from '../../../domain/audioTime';
import { AUDIO_NOT_AVAILABLE, CLASS_CODE_LENGTH, PASSAGE_NOT_FOUND } from '../../../domain/constants';
import { keepDigits, parseJumpTarget, percentComplete } from '../../../domain/passageNumber';
import { parseEditionSegment, parsePositionSegment, type ReaderEdition } from '../../../domain/readerUrl';
import { currentShortcutIndex } from '../../../domain/shortcuts';
import { readerPath, signInPath, teaserPath } from '../../../domain/routes';
import type { Edition, Publication, Shortcut } from '../../../domain/schemas';
import { connectClassCode, isValidClassCode, normalizeClassCode } from '../../../machines/classCode';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { BookOpenIcon, CheckIcon, ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, SignInIcon } from '../../components/Icons';
import { LevelChip } from '../../components/LevelChip';
import { TitleByline } from '../../components/TitleByline';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { MainLayout } from '../../layout/MainLayout';
import { queries } from '../../platform/api';
import { LoadingTitle, PlaceholderBars, PublicationError } from '../publication/PublicationStates';
import { isMissingPublication } from '../publication/publicationView';
import { ListenClock, PauseGlyph, PlayGlyph, useListenFlow, usePrefetchNeighbours } from '../listen/listenFlow';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE } from '../../../domain/access';
import { gateOfError, LOCKED_AUDIO_TOOLTIP } from '../../../domain/locks';
import { LockIcon } from '../../components/ReaderIcons';
import { LICENSING_INFO_HREF, PassageNotFound } from '../reader/PassageStates';
import { useUserFeatures } from '../reader/readerHooks';
import { useCurrentUser } from '../auth/session';
import '../../fonts/scripts';

/**
 * The edition's audio length, 'Xh Ym' or 'Ym' (SPEC §9). The server sums the passages narrated so far, so an
 * edition none of whose passages has been narrated yet says so rather than '0m'.
 */
function audioLengthText(edition: Edition): string {
  if (!edition.audioEnabled) return AUDIO_NOT_AVAILABLE;
  return edition.audioTotalLength > 0 ? formatAudioLength(edition.audioTotalLength) : 'Not narrated yet';
}

function TeaserContent({ slug, version, edition: editionSegment, position }: { slug: string; version: string; edition: string; position: string }) {
  const requested = parseEditionSegment(editionSegment);
  const query = useQuery(queries.publication(slug, version));
  const publication = query.data;
  useDocumentTitle(publication?.title ?? (isMissingPublication(query.error) ? 'Not found' : null));

  const parsed = parsePositionSegment(position);
  if (requested && (!parsed.canonical || teaserPath(slug, version, requested, parsed.position) !== `/teaser/${slug}/${version}/${editionSegment}/${position}`)) {
    return <Redirect to={teaserPath(slug, version, requested, parsed.position)} replace />;
  }

  return <TeaserBody query={query} requested={requested} position={parsed.position} />;
}

function TeaserBody({
  query,
  requested,
  position,
}: {
  query: UseQueryResult<Publication>;
  requested: ReaderEdition | null;
  position: number;
}) {
  if (query.isPending) return <TeaserSkeleton />;
  if (query.isError) return <PublicationError error={query.error} onRetry={() => void query.refetch()} />;
  const publication = query.data;
  const edition = requested ? publication.editions.find((e) => e.language.code === requested.language && e.level === requested.level) : undefined;
  if (!requested || !edition || position < 1) return <PassageNotFound publication={publication} />;
  if (edition.passageCount > 0 && position > edition.passageCount) {
    return <Redirect to={teaserPath(publication.slug, publication.version, requested, edition.passageCount)} replace />;
  }
  return <Teaser publication={publication} edition={edition} editionRef={requested} position={position} />;
}

function Teaser({ publication, edition, editionRef, position }: { publication: Publication; edition: Edition; editionRef: ReaderEdition; position: number }) {
  const { slug, version } = publication;
  const [, navigate] = useLocation();
  const passageCount = edition.passageCount;
  const hrefAt = (p: number) => teaserPath(slug, version, editionRef, p);
  const readerAddress = readerPath({ slug, version, primary: editionRef, position });
  const excerpt = useQuery(queries.excerpt(slug, { publicationVersion: version, language: edition.language.code, level: edition.level, position }));
  usePrefetchNeighbours(slug, version, edition, position);
  const gate = excerpt.isError ? gateOfError(excerpt.error) : null;
  const percent = percentComplete(position, passageCount);
  const dir = edition.language.rightToLeft ? 'rtl' : 'ltr';

  return (
    <article className="mx-auto max-w-4xl">
      <div className={`${cardStyles} overflow-hidden`}>
        <div className="flex flex-col gap-6 p-5 sm:flex-row sm:gap-8 sm:p-8">
          <div className="mx-auto w-36 shrink-0 sm:mx-0 sm:w-44">
            <div className="aspect-[3/4] overflow-hidden rounded-xl border border-line bg-primary-50 shadow-[0_10px_30px_rgba(16,58,58,0.15)]">
              <img src={publication.thumbnailImageUrl} alt={`Cover of ${publication.title}`} className="size-full object-cover" />
            </div>
          </div>
          <div className="min-w-0 flex-1">
            <TitleByline title={publication.title} author={publication.author} />
            <dl className="mt-5 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
              <div>
                <dt className="text-ink-muted">Edition</dt>
                <dd className="mt-1 flex flex-wrap items-center gap-2 font-medium">
                  <span>{edition.language.name}</span>
                  <LevelChip level={edition.level} size="sm" />
                </dd>
              </div>
              <div>
                <dt className="text-ink-muted">Version</dt>
                <dd className="mt-1 font-medium">{version}</dd>
              </div>
              <div>
                <dt className="text-ink-muted">Audio length</dt>
                <dd className="mt-1 font-medium">{audioLengthText(edition)}</dd>
              </div>
            </dl>
            <ProgressBar value={percent} valueLabel={`${percent}% complete`} className="mt-6 flex flex-col gap-2">
              {({ valueText }) => (
                <>
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <Label className="text-ink-muted">
                      Passage {position} of {passageCount}
                    </Label>
                    <span className="font-semibold text-primary-900">{valueText}</span>
                  </div>
                  <div className="h-2 overflow-hidden rounded-full bg-primary-100">
                    <div className="h-full rounded-full bg-primary-700" style={{ width: `${percent}%` }} />
                  </div>
                </>
              )}
            </ProgressBar>
          </div>
        </div>

        <div className="space-y-5 border-t border-line bg-paper/60 p-5 sm:p-8">
          {edition.shortcuts.length > 0 && (
            <ChapterSelect shortcuts={edition.shortcuts} position={position} onChoose={(p) => navigate(hrefAt(p))} />
          )}

          <section aria-label={`Passage ${position}`}>
            {excerpt.isPending && <div aria-hidden="true" className="h-7 animate-pulse rounded bg-primary-100/60" />}
            {gate === 'licenseRequired' && (
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-ink">
                <LockIcon size={18} className="shrink-0 text-primary-700" />
                <span className="font-semibold">{LICENSE_REQUIRED_MESSAGE}</span>
                <a href={LICENSING_INFO_HREF} className={linkStyles}>
                  Learn about School Licenses
                </a>
              </p>
            )}
            {gate === 'groupCodeRequired' && (
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-ink">
                <LockIcon size={18} className="shrink-0 text-primary-700" />
                <span className="font-semibold">{GROUP_CODE_REQUIRED_MESSAGE}</span>
                <a href="#teaser-access" className={linkStyles}>
                  Enter a class code below
                </a>
              </p>
            )}
            {excerpt.isError && gate === null && (
              <p className="text-ink-muted">{excerpt.error instanceof ApiError && excerpt.error.status === 404 ? PASSAGE_NOT_FOUND : excerpt.error.message}</p>
            )}
            {excerpt.isSuccess && (
              <p lang={edition.language.code} dir={dir} title={excerpt.data.text} className="truncate font-serif text-lg text-ink sm:text-xl">
                {excerpt.data.text}
              </p>
            )}
          </section>

          <nav aria-label="Passages" className="flex flex-wrap items-end justify-between gap-4">
            <div className="flex gap-2">
              <Button
                isDisabled={position <= 1}
                onPress={() => navigate(hrefAt(position - 1))}
                aria-label="Previous passage"
                className={`${buttonStyles.secondary} px-3`}
              >
                <ChevronLeftIcon size={18} />
                <span aria-hidden="true">Previous</span>
              </Button>
              <Button
                isDisabled={position >= passageCount}
                onPress={() => navigate(hrefAt(position + 1))}
                aria-label="Next passage"
                className={`${buttonStyles.secondary} px-3`}
              >
                <span aria-hidden="true">Next</span>
                <ChevronRightIcon size={18} />
              </Button>
            </div>
            <JumpForm key={position} passageCount={passageCount} onJump={(p) => navigate(hrefAt(p))} />
          </nav>

          <AudioBar edition={edition} position={position} gated={gate !== null} />
        </div>
      </div>

      <AccessPanel readerAddress={readerAddress} />
    </article>
  );
}

function ChapterSelect({ shortcuts, position, onChoose }: { shortcuts: readonly Shortcut[]; position: number; onChoose: (passage: number) => void }) {
  const current = currentShortcutIndex(shortcuts, position);
  return (
    <Select
      value={current === null ? null : String(current)}
      onChange={(key) => {
        const shortcut = key === null ? undefined : shortcuts[Number(key)];
        if (shortcut) onChoose(shortcut.passage);
      }}
      placeholder="Choose a chapter"
      className="flex max-w-md flex-col gap-1.5"
    >
      <Label className="text-sm font-medium text-ink-muted">Chapter</Label>
      {/* A long chapter name wraps inside the button instead of being cut off (WCAG 1.4.12 Text Spacing). */}
      <Button className="flex min-h-11 w-full items-center justify-between gap-3 rounded-lg border border-line-strong bg-surface px-3 py-2 text-start text-ink data-[hovered]:bg-primary-50">
        <SelectValue className="min-w-0 wrap-anywhere data-[placeholder]:text-ink-muted" />
        <ChevronDownIcon size={18} className="shrink-0" />
      </Button>
      <Popover
        offset={6}
        className="max-h-[400px] w-(--trigger-width) overflow-auto rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none"
      >
        <ListBox className="outline-none">
          {shortcuts.map((s, i) => (
            <ListBoxItem
              key={i}
              id={String(i)}
              textValue={s.name}
              className="flex cursor-pointer items-center justify-between gap-4 rounded-lg px-3 py-2.5 text-sm text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[selected]:font-semibold data-[selected]:text-primary-900"
            >
              {({ isSelected }) => (
                <>
                  <span>{s.name}</span>
                  {isSelected && <CheckIcon size={16} />}
                </>
              )}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

/** Jump to a passage: digits only; Go (or Enter) once the number is greater than 0. Past the end means the last. */
function JumpForm({ passageCount, onJump }: { passageCount: number; onJump: (position: number) => void }) {
  const [text, setText] = useState('');
  const target = parseJumpTarget(text, passageCount);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target !== null) onJump(target);
  };
  return (
    <Form onSubmit={submit} className="flex items-end gap-2">
      <TextField value={text} onChange={(value) => setText(keepDigits(value))} className="flex flex-col gap-1.5">
        <Label className="text-sm font-medium text-ink-muted">Jump to passage</Label>
        <Input
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={9}
          placeholder={`1–${passageCount}`}
          className="h-11 w-28 rounded-lg border border-field bg-surface px-3 text-base text-ink tabular-nums placeholder:text-ink-muted"
        />
      </TextField>
      <Button type="submit" isDisabled={target === null} className={`${buttonStyles.primary} h-11`}>
        Go
      </Button>
    </Form>
  );
}

/**
 * The audio bar (SPEC §2 Public teaser page): play and pause this passage's narration, a seek bar and the clock
 * in mm:ss. It runs on the engine's listen flow with auto-play off and no address to advance to, so the narration
 * is fetched, polled while it is being made, and played by the same driver as the listen page.
 */
function AudioBar({ edition, position, gated }: { edition: Edition; position: number; gated: boolean }) {
  const send = useEngineSend();
  const sendDialog = useChildSend('premiumDialog');
  const available = edition.audioEnabled && !gated;
  const { listen, currentTime, duration, seek, audio } = useListenFlow({ edition, position, autoPlay: () => false });
  const locked = available && audio === 'locked';
  const isPlaying = available && !locked && Boolean(listen?.isPlaying);
  return (
    <section aria-label="Audio" className="flex items-center gap-4 rounded-xl border border-line bg-surface px-4 py-3">
      <Button
        isDisabled={!available || !listen}
        onPress={() => (locked ? sendDialog({ type: 'premiumDialog.open', feature: 'Audio' }) : listen?.toggle())}
        aria-label={isPlaying ? 'Pause audio' : 'Play audio'}
        className="grid size-10 shrink-0 place-items-center rounded-full bg-primary-900 text-white data-[disabled]:cursor-not-allowed data-[disabled]:bg-primary-300 data-[hovered]:bg-primary-800"
      >
        {isPlaying ? <PauseGlyph size={18} /> : <PlayGlyph size={18} />}
      </Button>
      {locked ? (
        <span className="text-sm font-medium text-ink-muted">{LOCKED_AUDIO_TOOLTIP}</span>
      ) : available ? (
        <ListenClock currentTime={currentTime} duration={duration} onSeek={seek} className="min-w-0 flex-1" />
      ) : (
        <span className="text-sm font-medium text-ink-muted">{AUDIO_NOT_AVAILABLE}</span>
      )}
    </section>
  );
}

/**
 * Signed-in readers and class-code holders get 'Open in Reader'. Everyone else gets 'Sign In', which returns to
 * the reader, and the class-code entry: 8 characters, shown upper-case, Submit disabled until valid (SPEC §2, §5).
 */
function AccessPanel({ readerAddress }: { readerAddress: string }) {
  const send = useChildSend('classCode');
  const classCode = connectClassCode(
    useEngine((s) => s.classCode),
    send,
  );
  const { data: user } = useCurrentUser();
  const [text, setText] = useState('');
  const valid = isValidClassCode(text);

  if (classCode.hasCode || user) {
    return (
      <section aria-label="Keep reading" className="mt-6 flex justify-center">
        <Link href={readerAddress} className={`${buttonStyles.primary} px-6 py-3 text-base`}>
          <BookOpenIcon size={20} />
          Open in Reader
        </Link>
      </section>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && !classCode.isVerifying) classCode.submit(text);
  };

  return (
    <section aria-labelledby="teaser-access" className={`${cardStyles} mt-6 p-5 sm:p-8`}>
      <h2 id="teaser-access" className="text-xl font-semibold">
        Keep reading
      </h2>
      <div className="mt-4 grid gap-6 sm:grid-cols-[auto_1fr] sm:items-end sm:gap-10">
        <div>
          <p className="mb-2 text-sm text-ink-muted">Have an account?</p>
          <Link href={signInPath(readerAddress)} className={`${buttonStyles.primary} w-full sm:w-auto`}>
            <SignInIcon size={18} />
            Sign In
          </Link>
        </div>
        <Form onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <TextField value={text} onChange={(value) => setText(normalizeClassCode(value))} className="flex min-w-0 flex-1 flex-col gap-1.5">
            <Label className="text-sm text-ink-muted">Class Code</Label>
            <Input
              maxLength={CLASS_CODE_LENGTH}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="h-11 w-full min-w-40 rounded-lg border border-field bg-surface px-3 font-mono text-base tracking-[0.2em] text-ink uppercase"
            />
            <FieldError />
          </TextField>
          <Button type="submit" isDisabled={!valid || classCode.isVerifying} className={`${buttonStyles.secondary} h-11`}>
            {classCode.isVerifying ? 'Checking…' : 'Submit'}
          </Button>
        </Form>
      </div>
    </section>
  );
}

function TeaserSkeleton() {
  return (
    <LoadingTitle className="mx-auto max-w-4xl">
      <div aria-hidden="true" className={`${cardStyles} flex animate-pulse flex-col gap-6 p-5 sm:flex-row sm:p-8`}>
        <div className="mx-auto aspect-[3/4] w-36 rounded-xl bg-primary-100/70 sm:mx-0 sm:w-44" />
        <PlaceholderBars className="flex-1" bars={['h-8 w-2/3 bg-primary-100/70', 'h-5 w-1/3 bg-primary-100/50', 'h-16 bg-primary-100/40']} />
      </div>
    </LoadingTitle>
  );
}

/** The screen in the shared layout (navbar, footer): the route renders it bare. */
export function TeaserScreen(props: { slug: string; version: string; edition: string; position: string }) {
  useUserFeatures();
  return (
    <MainLayout>
      <TeaserContent {...props} />
    </MainLayout>
  );
}

export default TeaserScreen;
