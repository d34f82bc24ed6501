// @vitest-environment jsdom
/**
 * The class-code visitor's menu and navbar, the class-code input rules, the Classroom Library's empty states and
 * the teacher's curation controls, rendered with React Aria in jsdom. The API is the app's client with its
 * methods replaced (vi.spyOn), and the class code is the one the engine stored at an earlier visit.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadEngine } from '../../src/ui/engine/store';
import type { CurrentUser, PublicationSummary, UserTitle } from '../../src/domain/schemas';
import { AccountMenu } from '../../src/ui/layout/AccountMenu';
import { Navbar } from '../../src/ui/layout/Navbar';
import { api } from '../../src/ui/platform/api';
import { queryKeys } from '../../src/api/queryKeys';
import { ClassCodeForm } from '../../src/ui/screens/classroom/ClassCodeForm';
import { STORED_CLASS_CODE_KEY, resetClassCodeStateForTests } from '../../src/ui/screens/classroom/classCodeState';
import { ClassroomScreen } from '../../src/ui/screens/classroom/ClassroomScreen';
import { ClassroomSettingsPanel, VisibilityButton } from '../../src/ui/screens/classroom/CurationControls';

// jsdom has no CSS.escape (React Aria's popover) nor matchMedia (the search placeholder).
const css = ((globalThis as { CSS?: { escape?: (s: string) => string } }).CSS ??= {});
css.escape ??= (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (ch) => `\\${ch}`);
window.matchMedia ??= ((query: string) =>
  ({ matches: true, media: query, addEventListener: () => {}, removeEventListener: () => {} }) as unknown as MediaQueryList);

const teacher: CurrentUser = {
  id: 'u1',
  email: 'tess@example.org',
  emailVerified: false,
  name: 'Tess Teacher',
  firstName: 'Tess',
  lastName: 'Teacher',
  role: 'TEACHER',
  features: ['GROUP_CODES', 'LEVELS'],
  groupCode: 'TEACH123',
  organizationMemberships: [],
};

const bees: PublicationSummary = {
  id: 7,
  slug: 'how-bees-make-honey',
  version: 'v1',
  title: 'How Bees Make Honey',
  author: 'Theo Marchbank',
  thumbnailImageUrl: '/media/bees.svg',
  badges: [],
  createdAt: '2024-01-01T00:00:00.000Z',
  renderingMode: 'DEFAULT',
  levels: ['ORIGINAL'],
  languages: [],
};

const emptyList = { items: [], total: 0, page: 1, pageSize: 16 };

function renderWith(ui: ReactNode, user: CurrentUser | null, path = '/classroom-catalog') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  client.setQueryData(queryKeys.currentUser(), user);
  const { hook } = memoryLocation({ path });
  render(
    <QueryClientProvider client={client}>
      <Router hook={hook}>{ui}</Router>
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(() => {
  localStorage.clear();
  resetClassCodeStateForTests();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// A stored class code makes the views load the engine (a dynamic import): let it finish before the file's environment
// is torn down, or its late import fails the run (EnvironmentTeardownError on a busy machine).
afterAll(async () => {
  await loadEngine();
});

describe('the class-code visitor', () => {
  beforeEach(() => localStorage.setItem(STORED_CLASS_CODE_KEY, JSON.stringify('ABCD1234')));

  it("menu: 'Class Code: {code}', Clear Class Code, Sign In", async () => {
    renderWith(<AccountMenu />, null);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim())).toEqual([
      'Class Code: ABCD1234',
      'Clear Class Code',
      'Sign In',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Class Code: ABCD1234' }).getAttribute('href')).toBe('/classroom-catalog');
  });

  it('navbar: Classroom Library, no Free Library, no Enter Class Code', () => {
    renderWith(<Navbar />, null);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Classroom Library' }).getAttribute('href')).toBe('/classroom-catalog');
    expect(within(nav).queryByRole('link', { name: 'Free Library' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enter Class Code' })).toBeNull();
  });

  it("the Classroom Library lists the class's titles with the code, and says so when there are none", async () => {
    const list = vi.spyOn(api, 'listPublications').mockResolvedValue(emptyList);
    renderWith(<ClassroomScreen />, null);
    expect(await screen.findByRole('heading', { name: 'No titles visible to students' })).toBeTruthy();
    expect(screen.getByText('Ask your teacher to add titles to the Classroom Library')).toBeTruthy();
    expect(screen.queryByText('Go to Free Library to make titles visible')).toBeNull();
    expect(screen.getByText('0 titles available')).toBeTruthy();
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ page: 1 }), expect.objectContaining({ groupCode: 'ABCD1234' }));
  });
});

describe('an anonymous visitor', () => {
  it('navbar: Free Library and Enter Class Code, no Classroom Library', () => {
    renderWith(<Navbar />, null);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Free Library' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Classroom Library' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Enter Class Code' })).toBeTruthy();
  });

  it('the Classroom Library offers the class-code form', () => {
    renderWith(<ClassroomScreen />, null);
    expect(screen.getByRole('region', { name: 'Enter Class Code' })).toBeTruthy();
  });

  it('class code input: at most 8 characters, upper-cased; Submit disabled until exactly 8 letters or digits', () => {
    renderWith(<ClassCodeForm />, null);
    const input = screen.getByRole('textbox', { name: 'Class Code' }) as HTMLInputElement;
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(input.maxLength).toBe(8);
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: 'abc12' } });
    expect(input.value).toBe('ABC12');
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: 'abcd-123' } });
    expect(submit.hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: 'abcd12345' } });
    expect(input.value).toBe('ABCD1234');
    expect(submit.hasAttribute('disabled')).toBe(false);
  });
});

describe('a teacher', () => {
  it("the Classroom Library's empty state points to the Free Library, under the Teachers Only banner", async () => {
    const list = vi.spyOn(api, 'listPublications').mockResolvedValue(emptyList);
    vi.spyOn(api, 'getUserTitles').mockResolvedValue([]);
    renderWith(<ClassroomScreen />, teacher);
    expect(await screen.findByRole('heading', { name: 'No titles visible to students' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Free Library to make titles visible' }).getAttribute('href')).toBe('/catalog');
    const banner = screen.getByRole('region', { name: 'Teachers Only' });
    expect(banner.textContent).toContain(
      "These titles are visible to your students. Click the eye icon to hide titles from your students' library.",
    );
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ filter: 'assigned' }), expect.anything());
  });

  it('the eye toggle on each card shows whether the title is assigned', async () => {
    vi.spyOn(api, 'listPublications').mockResolvedValue({ items: [bees], total: 1, page: 1, pageSize: 16 });
    const assigned: UserTitle = { id: 1, titleId: bees.id, status: 'ASSIGNED', title: bees };
    vi.spyOn(api, 'getUserTitles').mockResolvedValue([assigned]);
    renderWith(<ClassroomScreen />, teacher);
    const eye = await screen.findByRole('button', { name: 'Visible to students: How Bees Make Honey' });
    await vi.waitFor(() => expect(eye.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByText('1 title available')).toBeTruthy();
  });

  it('the detail button and the Classroom Settings switch are disabled while saving, then show the new status', async () => {
    let statuses: UserTitle[] = [];
    vi.spyOn(api, 'getUserTitles').mockImplementation(async () => statuses);
    let finish!: () => void;
    const patch = vi.spyOn(api, 'setTitleVisibility').mockImplementation(
      (titleId, status) =>
        new Promise((resolve) => {
          finish = () => {
            statuses = [{ id: 1, titleId, status, title: bees }];
            resolve(statuses[0]!);
          };
        }),
    );
    renderWith(
      <>
        <VisibilityButton titleId={bees.id} />
        <ClassroomSettingsPanel titleId={bees.id} />
      </>,
      teacher,
      '/how-bees-make-honey/v1',
    );
    const show = await screen.findByRole('button', { name: 'Show to Students' });
    await vi.waitFor(() => expect(show.hasAttribute('disabled')).toBe(false));
    const toggle = screen.getByRole('switch', { name: 'Visible to Students' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);

    await act(async () => {
      fireEvent.click(show);
    });
    expect(patch).toHaveBeenCalledWith(bees.id, 'ASSIGNED');
    // The save is still pending (finish() has not run): both controls of the title are disabled. TanStack Query
    // tells observers of a started mutation on its next tick, so wait for it rather than read at once.
    await vi.waitFor(() => {
      expect(screen.getByRole('button', { name: 'Show to Students' }).hasAttribute('disabled')).toBe(true);
      expect(toggle.disabled).toBe(true);
    });

    await act(async () => finish());
    const hide = await screen.findByRole('button', { name: 'Hide from Students' });
    await vi.waitFor(() => expect(hide.hasAttribute('disabled')).toBe(false));
    expect(toggle.checked).toBe(true);
  });

  it('non-teachers see the sign-in note in Classroom Settings and no button', () => {
    renderWith(
      <>
        <VisibilityButton titleId={bees.id} />
        <ClassroomSettingsPanel titleId={bees.id} />
      </>,
      { ...teacher, role: 'INDIVIDUAL' },
    );
    expect(screen.getByText('Sign in as a teacher to manage classroom settings for this title.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Students/ })).toBeNull();
  });
});
