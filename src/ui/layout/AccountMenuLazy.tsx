/**
 * The right-hand menu's three variants themselves (see AccountMenu.tsx): a lazy chunk, so the catalog's entry JS
 * does not carry React Aria's menu code (src/ui/components/DeferredMenu.tsx).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { useLocation, useSearch } from 'wouter';
import { SUPPORT_EMAIL } from '../../domain/constants';
import type { CurrentUser } from '../../domain/schemas';
import type { DeferredMenuProps } from '../components/DeferredMenu';
import { CloseIcon, KeyIcon, MailIcon, SignInIcon, UserIcon, UserPlusIcon } from '../components/Icons';
import { withRedirect } from '../platform/navigation';
import { isOrgAdmin, roleLabel, signOut } from '../screens/auth/session';
import { classCodeMenuLabel, sendToEngine, type ClassCodeView } from '../screens/classroom/classCodeState';
import { CLASSROOM_PATH, FREE_LIBRARY_PATH } from '../screens/classroom/classroom';

/** The popover of all three menu variants (SPEC §2 Right-hand menu); the trigger is AccountMenu.tsx's. */
const popoverStyles = 'rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none';

/** The trigger (the stand-in's props from DeferredMenu) and the popover every variant opens. */
function MenuFrame({ button, defaultOpen, autoFocus, width, children }: DeferredMenuProps & { width: string; children: ReactNode }) {
  return (
    <MenuTrigger defaultOpen={defaultOpen}>
      <Button {...button} autoFocus={autoFocus} />
      <Popover placement="bottom end" offset={8} className={`${width} ${popoverStyles}`}>
        {children}
      </Popover>
    </MenuTrigger>
  );
}

const itemStyles =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[focused]:text-primary-900 data-[pressed]:bg-primary-100';

/** Where sign-out goes (SPEC §2: the destination is not shown). */
export const AFTER_SIGN_OUT = '/catalog';

function useCurrentAddress(): string {
  const [path] = useLocation();
  const search = useSearch();
  return search ? `${path}?${search}` : path;
}

export function ClassCodeMenu({ classCode, button, defaultOpen, autoFocus }: { classCode: ClassCodeView } & DeferredMenuProps) {
  const current = useCurrentAddress();
  const [, navigate] = useLocation();
  const label = classCodeMenuLabel(classCode) ?? '';
  const onClear = () => {
    void sendToEngine({ type: 'classCode.clear' }).then(() => navigate(FREE_LIBRARY_PATH));
  };
  return (
    <MenuFrame button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} width="min-w-56">
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
    </MenuFrame>
  );
}

export function AnonymousMenu({ button, defaultOpen, autoFocus }: DeferredMenuProps) {
  const current = useCurrentAddress();
  return (
    <MenuFrame button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} width="min-w-56">
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
    </MenuFrame>
  );
}

export function SignedInMenu({ user, initials, button, defaultOpen, autoFocus }: { user: CurrentUser; initials: string } & DeferredMenuProps) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const role = roleLabel(user);
  const onSignOut = async () => {
    const failure = await signOut(queryClient);
    if (failure) console.error('Sign-out failed', failure);
    else navigate(AFTER_SIGN_OUT);
  };
  return (
    <MenuFrame button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} width="w-72 max-w-[calc(100vw-2rem)]">
      <div data-testid="account-card" className="flex items-center gap-3 rounded-lg bg-paper px-3 py-3">
            <span aria-hidden="true" className="grid size-10 shrink-0 place-items-center rounded-full bg-primary-900 font-semibold text-white">
              {initials}
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
    </MenuFrame>
  );
}

/** Which variant the trigger in AccountMenu.tsx stands for (SPEC §2 Right-hand menu). */
export type AccountMenuVariant =
  | { variant: 'signedIn'; user: CurrentUser; initials: string }
  | { variant: 'classCode'; classCode: ClassCodeView }
  | { variant: 'anonymous' };

/**
 * The variant for who is looking. One lazy component for all three, so a change of variant (the user loads, signs
 * in or out) does not wait for a chunk again.
 */
export default function AccountMenuLazy(props: AccountMenuVariant & DeferredMenuProps) {
  const { button, defaultOpen, autoFocus } = props;
  if (props.variant === 'signedIn') return <SignedInMenu user={props.user} initials={props.initials} button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} />;
  if (props.variant === 'classCode') return <ClassCodeMenu classCode={props.classCode} button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} />;
  return <AnonymousMenu button={button} defaultOpen={defaultOpen} autoFocus={autoFocus} />;
}
