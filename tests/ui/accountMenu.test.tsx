// @vitest-environment jsdom
/** The right-hand menu's variants (SPEC §2 Shared layout), rendered with React Aria in jsdom from a cached user. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../src/domain/schemas';
import { AccountMenu } from '../../src/ui/layout/AccountMenu';
import { queryKeys } from '../../src/api/queryKeys';

afterEach(cleanup);

// jsdom has no CSS.escape, which React Aria's popover uses; a minimal one for plain identifiers.
const css = ((globalThis as { CSS?: { escape?: (s: string) => string } }).CSS ??= {});
css.escape ??= (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (ch) => `\\${ch}`);

const teacher: CurrentUser = {
  id: 'u1',
  email: 'tess@example.org',
  emailVerified: false,
  name: 'Tess Teacher',
  firstName: 'Tess',
  lastName: 'Teacher',
  role: 'TEACHER',
  features: [],
  groupCode: null,
  organizationMemberships: [{ role: 'org:member', organization: { id: 'o1', slug: 'north', name: 'North School' }, license: null }],
};

async function openMenu(user: CurrentUser | null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(queryKeys.currentUser(), user);
  const { hook } = memoryLocation({ path: '/catalog' });
  render(
    <QueryClientProvider client={client}>
      <Router hook={hook}>
        <AccountMenu />
      </Router>
    </QueryClientProvider>,
  );
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Account menu' }));
  });
  return screen.findByRole('menu');
}

const itemNames = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim());

describe('the account menu', () => {
  it('anonymous: Contact Support, Sign In, Sign Up', async () => {
    const menu = await openMenu(null);
    expect(itemNames(menu)).toEqual(['Contact Support', 'Sign In', 'Sign Up']);
  });

  it('signed in: a card with name, email and role; Manage Account and Sign Out, no Manage Organization for a member', async () => {
    const menu = await openMenu(teacher);
    expect(itemNames(menu)).toEqual(['Manage Account', 'Sign Out']);
    const card = screen.getByTestId('account-card');
    expect(card.textContent).toContain('Tess Teacher');
    expect(card.textContent).toContain('tess@example.org');
    expect(within(card).getByTestId('account-role').textContent).toBe('Teacher');
  });

  it('organization admins also get Manage Organization', async () => {
    const admin: CurrentUser = {
      ...teacher,
      role: 'INDIVIDUAL',
      organizationMemberships: [{ role: 'org:admin', organization: { id: 'o1', slug: 'north', name: 'North School' }, license: null }],
    };
    const menu = await openMenu(admin);
    expect(itemNames(menu)).toEqual(['Manage Account', 'Manage Organization', 'Sign Out']);
    expect(within(menu).getByRole('menuitem', { name: 'Manage Organization' }).getAttribute('href')).toBe('/organization');
    expect(screen.getByTestId('account-card').textContent).toContain('Reader');
  });

  it('a user without a role shows no role', async () => {
    await openMenu({ ...teacher, role: null });
    expect(screen.getByTestId('account-card').textContent).toBe('TTTess Teachertess@example.org');
    expect(screen.queryByTestId('account-role')).toBeNull();
  });
});
