/**
 * A catalog card (SPEC §2 Catalog): cover, title and author, linking to the publication page. Premium titles carry
 * a 'Premium' badge; for a reader who may not open the title (`isLocked`, from `useTitleLocked`) a click opens
 * 'Unlock Premium Novels' instead of navigating. Teachers get the eye toggle over the cover (a sibling of the link,
 * never inside it).
 */
import { useQuery } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import { isPremiumTitle, isTitleLockedFor, PREMIUM_BADGE } from '../../../domain/access';
import type { PublicationSummary } from '../../../domain/schemas';
import { queries } from '../../platform/api';
import { useCurrentUser } from '../auth/session';
import { useClassCode } from '../classroom/classCodeState';
import { LazyEyeToggle as EyeToggle } from '../classroom/lazyClassroom';
import { publicationPath } from '../../../domain/routes';
import { TagList } from '../../components/TagList';

export const PREMIUM_LABEL = 'Premium';

function tagLabel(badge: string): string {
  return badge === PREMIUM_BADGE ? PREMIUM_LABEL : badge;
}

/**
 * Whether a premium title is closed to this reader, as the server judges its page (src/domain/access.ts
 * isTitleLockedFor): `features` are the signed-in user's or the class code's. A class-code student's reach only
 * the titles the teacher shared (GET /users/titles with the code, the list the Visible to Students badge reads too),
 * so a premium title the class was not given opens the premium dialog, as it does for a visitor.
 */
export function useTitleLocked(publication: Pick<PublicationSummary, 'id' | 'badges'>, features: readonly string[]): boolean {
  const { data: user } = useCurrentUser();
  const { code } = useClassCode();
  const student = !user && code !== null;
  const premium = isPremiumTitle(publication);
  const shared = useQuery({ ...queries.userTitles({ groupCode: code ?? '' }), enabled: student && premium });
  if (!premium) return false;
  const classTitleIds = student ? (shared.data ?? []).filter((t) => t.status === 'ASSIGNED').map((t) => t.titleId) : null;
  return isTitleLockedFor(publication, features, classTitleIds);
}

export function PublicationCard({
  publication,
  showEye = false,
  isLocked = false,
  onLockedPress,
}: {
  publication: PublicationSummary;
  /** A teacher's eye toggle (visible to students or not). */
  showEye?: boolean;
  /** A premium title the reader may not open: the click asks for a license instead. */
  isLocked?: boolean;
  onLockedPress?: () => void;
}) {
  const tags = [...(publication.renderingMode === 'ILLUSTRATED' ? ['Illustrated'] : []), ...publication.badges.map(tagLabel)];
  const premium = isPremiumTitle(publication);
  const onClick = (event: MouseEvent) => {
    if (!isLocked) return;
    event.preventDefault();
    onLockedPress?.();
  };
  const link = (
    <Link
      href={publicationPath(publication.slug, publication.version)}
      onClick={onClick}
      aria-haspopup={isLocked ? 'dialog' : undefined}
      data-premium={premium || undefined}
      className="group flex h-full flex-row gap-4 rounded-2xl p-2 transition-colors hover:bg-surface focus-visible:bg-surface sm:flex-col sm:gap-0"
    >
      <div className="relative aspect-[3/4] w-24 shrink-0 overflow-hidden sm:w-auto rounded-xl border border-line bg-primary-50 shadow-[0_1px_3px_rgba(16,58,58,0.08)] transition-shadow group-hover:shadow-[0_8px_24px_rgba(16,58,58,0.14)]">
        <img
          src={publication.thumbnailImageUrl}
          alt=""
          loading="lazy"
          decoding="async"
          className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
        />
        {tags.length > 0 && (
          <TagList
            tags={tags}
            className="absolute top-2 left-2 hidden flex-wrap gap-1 sm:flex"
            aria-hidden="true"
            tagClassName="rounded-full bg-surface/95 px-2 py-0.5 text-xs font-semibold text-primary-900 capitalize shadow-sm"
          />
        )}
      </div>
      <div className="min-w-0 self-center px-1 pt-1 pb-1 sm:self-auto sm:pt-3">
        <h2 className="font-serif text-lg leading-snug font-semibold text-primary-900 group-hover:underline group-hover:decoration-primary-300 group-hover:underline-offset-4">
          {publication.title}
        </h2>
        <p className="mt-1 text-sm text-ink-muted">{publication.author}</p>
        {tags.length > 0 && (
          <p className="mt-2 text-xs font-semibold tracking-wide text-primary-700 uppercase sm:sr-only">{tags.join(' · ')}</p>
        )}
      </div>
    </Link>
  );
  if (!showEye) return link;
  return (
    <div className="relative h-full">
      {link}
      <EyeToggle titleId={publication.id} title={publication.title} className="absolute top-4 right-4" />
    </div>
  );
}

export function PublicationCardSkeleton() {
  return (
    <div className="flex h-full animate-pulse flex-row gap-4 p-2 sm:flex-col sm:gap-0">
      <div className="aspect-[3/4] w-24 shrink-0 rounded-xl bg-primary-100/70 sm:w-auto" />
      <div className="flex-1 self-center sm:self-auto">
        <div className="h-5 w-4/5 rounded bg-primary-100/70 sm:mt-4" />
        <div className="mt-2 h-4 w-1/2 rounded bg-primary-100/50" />
      </div>
    </div>
  );
}
