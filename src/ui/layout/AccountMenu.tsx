/**
 * The right-hand menu (SPEC §2 Shared layout), by who is looking:
 * - anonymous: Contact Support, Sign In, Sign Up (carrying the current address as redirectUrl);
 * - signed in: the avatar; a card with name, email and role; Manage Account; Manage Organization for
 *   organization admins only; Sign Out.
 * - class-code visitor (no user, a class code set): 'Class Code: {code}' ('!' when the last check failed; it opens
 *   the Classroom Library), Clear Class Code (the engine's classCode.clear, then the Free Library), Sign In.
 * Sign Out ends the session on the server, resets the role-modal flag, clears the cached user, tracks
 * 'Signed Out' (src/ui/screens/auth/session.ts) and navigates to the catalog.
 *
 * This module has the trigger buttons; the menus are AccountMenuLazy.tsx, a lazy chunk, so the catalog's entry JS
 * does not carry React Aria's menu code (src/ui/components/DeferredMenu.tsx).
 */
import type { CurrentUser } from '../../domain/schemas';
import { DeferredMenu, lazyMenu } from '../components/DeferredMenu';
import { ChevronDownIcon, KeyIcon, UserIcon } from '../components/Icons';
import { useCurrentUser } from '../screens/auth/session';
import { useClassCode } from '../screens/classroom/classCodeState';

const AccountMenuLazy = lazyMenu(() => import('./AccountMenuLazy'));

/** The round trigger button of all three menu variants (SPEC §2 Right-hand menu). */
const triggerStyles =
  'flex items-center gap-1 rounded-full border border-line bg-surface py-1 ps-1 pe-2 text-primary-900 transition-colors data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100';

function initials(user: CurrentUser): string {
  const letters = [user.firstName, user.lastName].map((part) => [...part.trim()][0] ?? '').join('');
  return (letters || [...user.email][0] || '?').toUpperCase();
}

export function AccountMenu() {
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  if (user) {
    const letters = initials(user);
    return (
      <DeferredMenu
        menu={AccountMenuLazy}
        props={{ variant: 'signedIn', user, initials: letters }}
        button={{
          className: triggerStyles,
          children: (
            <>
              {/* Named by its content (not aria-label), so the visible initials do not clash with the name. */}
              <span className="sr-only">Account menu</span>
              <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-primary-900 text-sm font-semibold text-white">
                {letters}
              </span>
              <ChevronDownIcon size={16} />
            </>
          ),
        }}
      />
    );
  }
  if (classCode.code !== null) {
    return (
      <DeferredMenu
        menu={AccountMenuLazy}
        props={{ variant: 'classCode', classCode }}
        button={{
          className: triggerStyles,
          children: (
            <>
              <span className="sr-only">Account menu</span>
              <span aria-hidden="true" className="grid size-8 place-items-center rounded-full bg-primary-100 text-primary-800">
                <KeyIcon size={18} />
              </span>
              <span aria-hidden="true" className="hidden font-mono text-sm font-semibold tracking-wider sm:inline">
                {classCode.code}
                {classCode.isInvalid ? '!' : ''}
              </span>
              <ChevronDownIcon size={16} />
            </>
          ),
        }}
      />
    );
  }
  return (
    <DeferredMenu
      menu={AccountMenuLazy}
      props={{ variant: 'anonymous' }}
      button={{
        'aria-label': 'Account menu',
        className: triggerStyles,
        children: (
          <>
            <span className="grid size-8 place-items-center rounded-full bg-primary-100 text-primary-800">
              <UserIcon size={18} />
            </span>
            <ChevronDownIcon size={16} />
          </>
        ),
      }}
    />
  );
}
