// @vitest-environment jsdom
/**
 * Premium titles a reader may not open (bug 6): one answer, 'Unlock Premium Novels', on the client as on
 * the server.
 * - The rule (src/domain/access.ts isTitleLockedFor): a class code's features reach only the titles its teacher
 *   shared, as GET /publications/{slug} judges them.
 * - The catalog card (useTitleLocked): a class-code student's premium card of an unshared title opens the dialog
 *   instead of the page; a shared one opens.
 * - PublicationError, the one error block of the publication, teaser and listen pages: 'Premium content' replaces
 *   the address with the reader's library and opens the dialog; a missing title and other failures are unchanged.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/apiError';
import { queryKeys } from '../../src/api/queryKeys';
import { isTitleLockedFor } from '../../src/domain/access';
import { NOVEL_NOT_FOUND_MESSAGE } from '../../src/domain/constants';
import type { CurrentUser, PublicationSummary, UserTitle } from '../../src/domain/schemas';
import { api } from '../../src/ui/platform/api';
import { PublicationCard, useTitleLocked } from '../../src/ui/screens/catalog/PublicationCard';
import { resetClassCodeStateForTests, sendToEngineChild, STORED_CLASS_CODE_KEY } from '../../src/ui/screens/classroom/classCodeState';
import { PublicationError } from '../../src/ui/screens/publication/PublicationStates';

vi.mock('../../src/ui/screens/classroom/classCodeState', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/ui/screens/classroom/classCodeState')>()),
  // The engine is not loaded here: what the views ask of it is recorded.
  sendToEngineChild: vi.fn(() => Promise.resolve()),
}));

function summary(id: number, slug: string, badges: string[]): PublicationSummary {
  return {
    id,
    slug,
    version: 'v1',
    title: slug,
    author: 'A. Author',
    thumbnailImageUrl: `/media/${slug}.svg`,
    badges,
    createdAt: '2024-01-01T00:00:00.000Z',
    renderingMode: 'DEFAULT',
    levels: ['ORIGINAL'],
    languages: [],
  };
}

const biscuit = summary(9, 'professor-biscuit-goes-missing', ['premium']);
const paper = summary(15, 'the-long-journey-of-paper', ['premium']);
const bees = summary(7, 'how-bees-make-honey', []);

const reader: CurrentUser = {
  id: 'u2',
  email: 'rea@example.org',
  emailVerified: false,
  name: 'Rea Reader',
  firstName: 'Rea',
  lastName: 'Reader',
  role: 'INDIVIDUAL',
  features: ['LEVELS'],
  groupCode: null,
  organizationMemberships: [],
};

const assigned = (title: PublicationSummary): UserTitle => ({ id: title.id * 10, titleId: title.id, status: 'ASSIGNED', title });

function renderAt(path: string, user: CurrentUser | null, ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(queryKeys.currentUser(), user);
  const location = memoryLocation({ path, record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook}>{ui}</Router>
    </QueryClientProvider>,
  );
  return { history: location.history };
}

beforeEach(() => {
  localStorage.clear();
  resetClassCodeStateForTests();
  vi.mocked(sendToEngineChild).mockClear();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('isTitleLockedFor', () => {
  it('closes a premium title to a reader without LEVELS, and never a free one', () => {
    expect(isTitleLockedFor(biscuit, [], null)).toBe(true);
    expect(isTitleLockedFor(biscuit, ['AUDIO', 'LANGUAGES'], null)).toBe(true);
    expect(isTitleLockedFor(bees, [], null)).toBe(false);
    expect(isTitleLockedFor(bees, [], [])).toBe(false);
  });

  it("opens every premium title to a signed-in user's LEVELS", () => {
    expect(isTitleLockedFor(biscuit, ['LEVELS'], null)).toBe(false);
  });

  it("lets a class code's LEVELS reach only the titles the teacher shared", () => {
    expect(isTitleLockedFor(paper, ['LEVELS'], [paper.id])).toBe(false);
    expect(isTitleLockedFor(biscuit, ['LEVELS'], [paper.id])).toBe(true);
    // The class's titles not known yet: nothing is promised.
    expect(isTitleLockedFor(paper, ['LEVELS'], [])).toBe(true);
  });
});

/** A card as the catalog renders it, with the features the engine would give. */
function Card({ publication, features, onLocked }: { publication: PublicationSummary; features: string[]; onLocked: () => void }) {
  const locked = useTitleLocked(publication, features);
  return <PublicationCard publication={publication} isLocked={locked} onLockedPress={onLocked} />;
}

describe('a premium card', () => {
  it("opens 'Unlock Premium Novels' for a class-code student on a title the teacher did not share, and the page on one they did", async () => {
    localStorage.setItem(STORED_CLASS_CODE_KEY, JSON.stringify('ABCD1234'));
    const titles = vi.spyOn(api, 'getUserTitles').mockResolvedValue([assigned(paper)]);
    const onLocked = vi.fn();
    const { history } = renderAt(
      '/catalog',
      null,
      <>
        <Card publication={biscuit} features={['LEVELS']} onLocked={onLocked} />
        <Card publication={paper} features={['LEVELS']} onLocked={onLocked} />
      </>,
    );
    const [unshared, shared] = screen.getAllByRole('link');
    await waitFor(() => expect(shared!.getAttribute('aria-haspopup')).toBeNull());
    expect(titles).toHaveBeenCalled();
    expect(unshared!.getAttribute('aria-haspopup')).toBe('dialog');

    fireEvent.click(unshared!);
    expect(onLocked).toHaveBeenCalledTimes(1);
    expect(history.at(-1)).toBe('/catalog');

    fireEvent.click(shared!);
    expect(onLocked).toHaveBeenCalledTimes(1);
    expect(history.at(-1)).toBe('/the-long-journey-of-paper/v1');
  });

  it("follows a signed-in user's features on every title, without asking for the class's titles", () => {
    const titles = vi.spyOn(api, 'getUserTitles');
    renderAt('/catalog', reader, <Card publication={biscuit} features={reader.features} onLocked={() => {}} />);
    expect(screen.getByRole('link').getAttribute('aria-haspopup')).toBeNull();
    expect(titles).not.toHaveBeenCalled();
  });
});

describe('PublicationError', () => {
  const premium = new ApiError(403, [{ code: 'premium_content', message: 'Premium content' }]);

  it("sends a class-code student to the Classroom Library with 'Unlock Premium Novels'", async () => {
    localStorage.setItem(STORED_CLASS_CODE_KEY, JSON.stringify('ABCD1234'));
    const { history } = renderAt('/professor-biscuit-goes-missing/v1', null, <PublicationError error={premium} onRetry={() => {}} />);
    await waitFor(() => expect(history.at(-1)).toBe('/classroom-catalog'));
    expect(history).not.toContain('/catalog');
    expect(sendToEngineChild).toHaveBeenCalledWith('premiumDialog', { type: 'premiumDialog.open', feature: 'Novels' });
  });

  it("sends anyone else to the Free Library with 'Unlock Premium Novels'", async () => {
    const { history } = renderAt('/professor-biscuit-goes-missing/v1', null, <PublicationError error={premium} onRetry={() => {}} />);
    await waitFor(() => expect(history.at(-1)).toBe('/catalog'));
    expect(sendToEngineChild).toHaveBeenCalledWith('premiumDialog', { type: 'premiumDialog.open', feature: 'Novels' });
  });

  it("shows 'Novel not found' for a missing title, and the message with Try again for any other failure", () => {
    renderAt('/nope/v1', null, <PublicationError error={new ApiError(404, [{ code: 'not_found', message: 'Publication not found' }])} onRetry={() => {}} />);
    expect(screen.getByRole('heading', { level: 1, name: NOVEL_NOT_FOUND_MESSAGE })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Contact Support' })).toBeTruthy();
    cleanup();

    const onRetry = vi.fn();
    renderAt('/bees/v1', null, <PublicationError error={new ApiError(500, [{ code: 'internal', message: 'The server is down' }])} onRetry={onRetry} />);
    expect(screen.getByRole('heading', { level: 1, name: 'This title could not be loaded' })).toBeTruthy();
    expect(screen.getByText('The server is down')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(sendToEngineChild).not.toHaveBeenCalled();
  });
});
