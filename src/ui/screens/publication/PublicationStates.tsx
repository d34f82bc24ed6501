/**
 * The states of a page built on one publication, shared by the publication page, its legacy redirect, the teaser
 * and the listen pages.
 *
 * PublicationError, when fetching the publication failed (SPEC §8):
 * - no such publication (404, or 400 for a malformed slug): 'Novel not found', with Contact Support;
 * - a premium title this reader may not open (403 `premium_content`, 'Premium content'): back to the reader's
 *   library (the Classroom Library for a class-code student, else the Free Library) with 'Unlock Premium Novels'
 *   open, the dialog a premium card opens, so the reader learns why instead of being bounced without a word
 *   (docs/decisions.md, "A premium title opened by address");
 * - anything else: 'This title could not be loaded', the error's message and Try again.
 *
 * LoadingTitle and PlaceholderBars are the busy state while the title loads. An edition or position the loaded
 * title does not have is the reader's error panel, `PassageNotFound` in src/ui/screens/reader/PassageStates.tsx.
 */
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { NOVEL_NOT_FOUND_MESSAGE } from '../../../domain/constants';
import { NotFoundContent, StatusCard } from '../../components/StatusPage';
import { buttonStyles } from '../../components/styles';
import { useCurrentUser } from '../auth/session';
import { sendToEngineChild, useClassCode } from '../classroom/classCodeState';
import { isMissingPublication, isPremiumContent, libraryPath } from './publicationView';

export function PublicationError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  if (isMissingPublication(error)) return <NotFoundContent message={NOVEL_NOT_FOUND_MESSAGE} showSupport />;
  if (isPremiumContent(error)) return <PremiumTitleRedirect />;
  return (
    <StatusCard
      title="This title could not be loaded"
      actions={
        <button type="button" className={buttonStyles.primary} onClick={onRetry}>
          Try again
        </button>
      }
    >
      <p>{error.message}</p>
    </StatusCard>
  );
}

/** Replace the address with the reader's library and open 'Unlock Premium Novels' over it. */
function PremiumTitleRedirect() {
  const [, navigate] = useLocation();
  const { data: user } = useCurrentUser();
  const { code } = useClassCode();
  const target = libraryPath(Boolean(user), code);
  useEffect(() => {
    void sendToEngineChild('premiumDialog', { type: 'premiumDialog.open', feature: 'Novels' });
    navigate(target, { replace: true });
  }, [navigate, target]);
  return null;
}

/** While a title loads: 'Loading title…' for screen readers around the page's own placeholder shapes. */
export function LoadingTitle({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div aria-busy="true" className={className}>
      <p role="status" className="sr-only">
        Loading title…
      </p>
      {children}
    </div>
  );
}

/** Placeholder bars (each a height, width and tint) standing in for lines of text while a title loads. */
export function PlaceholderBars({ bars, className = '' }: { bars: readonly string[]; className?: string }) {
  return (
    <div className={`space-y-4 ${className}`}>
      {bars.map((bar, i) => (
        <div key={i} className={`rounded ${bar}`} />
      ))}
    </div>
  );
}
