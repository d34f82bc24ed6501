/**
 * The right-hand menu (SPEC §2 Shared layout), by who is looking:
 * - anonymous: Contact Support, Sign In, Sign Up (carrying the current address as redirectUrl);
 * - signed in: the avatar; a card with name, email and role; Manage Account; Manage Organization for
 *   organization admins only; Sign Out.
 * - class-code visitor (no user, a class code set): 'Class Code: {code}' ('!' when the last check failed; it opens
 *   the Classroom Library), Clear Class Code (the engine's classCode.clear, then the Free Library), Sign In.
 * Sign Out ends the session on the server, resets the role-modal flag, clears the cached user, tracks
 * 'Signed Out' (src/ui/screens/auth/session.ts) and navigates to the catalog.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { useLocation, useSearch } from 'wouter';
import { SUPPORT_EMAIL } from '../../domain/constants';
import type { CurrentUser } from '../../domain/schemas';
import { ChevronDownIcon, CloseIcon, KeyIcon, MailIcon, SignInIcon, UserIcon, UserPlusIcon } from '../components/Icons';
import { withRedirect } from '../platform/navigation';
import { isOrgAdmin, roleLabel, signOut, useCurrentUser } from '../screens/auth/session';
import { classCodeMenuLabel, sendToEngine, useClassCode, type ClassCodeView } from '../screens/classroom/classCodeState';
import { CLASSROOM_PATH, FREE_LIBRARY_PATH } from '../screens/classroom/classroom';

/** The round trigger button and the popover of all three menu variants (SPEC §2 Right-hand menu). */
const triggerStyles =
  'flex items-center gap-1 rounded-full border border-line bg-surface py-1 ps-1 pe-2 text-primary-900 transition-colors data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100';
const popoverStyles = 'rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none';

const itemStyles =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[focused]:text-primary-900 data-[pressed]:bg-primary-100';

/** Where sign-out goes (SPEC §2: the destination is not shown). */
export const AFTER_SIGN_OUT = '/catalog';

function initials(user: CurrentUser): string {
  const letters = [user.firstName, user.lastName].map((part) => [...part.trim()][0] ?? '').join('');
  return (letters || [...user.email][0] || '?').toUpperCase();
}

export function AccountMenu() {
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  if (user) return <SignedInMenu user={user} />;
  return classCode.code !== null ? <ClassCodeMenu classCode={classCode} /> : <AnonymousMenu />;
}

function useCurrentAddress(): string {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
}

function ClassCodeMenu({ classCode }: { classCode: ClassCodeView }) {
  const current = useCurrentAddress();
  const [, navigate] = useLocation();
  const label = classCodeMenuLabel(classCode) ?? '';
  const onClear = () => {
    void sendToEngine({ type: 'classCode.clear' }).then(() => navigate(FREE_LIBRARY_PATH));
  };
  return (
    <MenuTrigger>
      <Button className={triggerStyles}>
        <span className="sr-only">Account menu</span>
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-primary-100 text-primary-800">
          <KeyIcon size={18} />
        </span>
        <span aria-hidden="true" className="hidden font-mono text-sm font-semibold tracking-wider sm:inline">
          {classCode.code}
          {classCode.isInvalid ? '!' : ''}
        </span>
        <ChevronDownIcon size={16} />
      </Button>
      <Popover
        placement="bottom end"
        offset={8}
        className={`min-w-56 ${popoverStyles}`}
      >
        <Menu aria-label="Account" className="outline-none">
          <MenuItem id="class-code" href={CLASSROOM_PATH} className={itemStyles} textValue={label}>
            <KeyIcon size={18} />
            {label}
          </MenuItem>
          <MenuItem id="clear-class-code" onAction={onClear} className={itemStyles} textValue="Clear Class Code">
            <CloseIcon size={18} />
            Clear Class Code
          </MenuItem>
          <Separator className="my-1.5 border-t border-line" />
          <MenuItem id="sign-in" href={withRedirect('/sign-in', current)} className={itemStyles} textValue="Sign In">
            <SignInIcon size={18} />
            Sign In
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function AnonymousMenu() {
  const current = useCurrentAddress();
  return (
    <MenuTrigger>
      <Button
        aria-label="Account menu"
        className={triggerStyles}
      >
        <span className="grid size-8 place-items-center rounded-full bg-primary-100 text-primary-800">
          <UserIcon size={18} />
        </span>
        <ChevronDownIcon size={16} />
      </Button>
      <Popover
        placement="bottom end"
        offset={8}
        className={`min-w-56 ${popoverStyles}`}
      >
        <Menu aria-label="Account" className="outline-none">
          <MenuItem id="support" href={`mailto:${SUPPORT_EMAIL}`} className={itemStyles} textValue="Contact Support">
            <MailIcon size={18} />
            Contact Support
          </MenuItem>
          <Separator className="my-1.5 border-t border-line" />
          <MenuItem id="sign-in" href={withRedirect('/sign-in', current)} className={itemStyles} textValue="Sign In">
            <SignInIcon size={18} />
            Sign In
          </MenuItem>
          <MenuItem id="sign-up" href={withRedirect('/sign-up', current)} className={itemStyles} textValue="Sign Up">
            <UserPlusIcon size={18} />
            Sign Up
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

function SignedInMenu({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const role = roleLabel(user);
  const onSignOut = async () => {
    const failure = await signOut(queryClient);
    if (failure) console.error('Sign-out failed', failure);
    else navigate(AFTER_SIGN_OUT);
  };
  return (
    <MenuTrigger>
      <Button className={triggerStyles}>
        {/* Named by its content (not aria-label), so the visible initials do not clash with the name. */}
        <span className="sr-only">Account menu</span>
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-primary-900 text-sm font-semibold text-white">
          {initials(user)}
        </span>
        <ChevronDownIcon size={16} />
      </Button>
      <Popover
        placement="bottom end"
        offset={8}
        className={`w-72 max-w-[calc(100vw-2rem)] ${popoverStyles}`}
      >
        <div data-testid="account-card" className="flex items-center gap-3 rounded-lg bg-paper px-3 py-3">
              <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-full bg-primary-900 font-semibold text-white">
                {initials(user)}
              </span>
              <span className="min-w-0">
                <span data-testid="account-name" className="block truncate font-semibold text-ink">
                  {user.name}
                </span>
                <span data-testid="account-email" className="block truncate text-sm text-ink-muted">
                  {user.email}
                </span>
                {role ? (
                  <span data-testid="account-role" className="mt-1 inline-block rounded-full bg-primary-100 px-2 py-0.5 text-xs font-semibold text-primary-900">
                    {role}
                  </span>
                ) : null}
              </span>
        </div>
        <Menu aria-label="Account" className="mt-1.5 outline-none">
          <MenuItem id="account" href="/account" className={itemStyles} textValue="Manage Account">
            <UserIcon size={18} />
            Manage Account
          </MenuItem>
          {isOrgAdmin(user) ? (
            <MenuItem id="organization" href="/organization" className={itemStyles} textValue="Manage Organization">
              <UserPlusIcon size={18} />
              Manage Organization
            </MenuItem>
          ) : null}
          <Separator className="my-1.5 border-t border-line" />
          <MenuItem id="sign-out" onAction={onSignOut} className={itemStyles} textValue="Sign Out">
            <SignInIcon size={18} className="rotate-180" />
            Sign Out
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
