/**
 * The right-hand menu's three variants themselves (see AccountMenu.tsx): a lazy chunk, so the catalog's entry JS
 * does not carry React Aria's menu code (src/ui/components/DeferredMenu.tsx).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Menu, MenuItem, Separator } from 'react-aria-components';
import { useLocation } from 'wouter';
import { SUPPORT_EMAIL } from '../../domain/constants';
import type { CurrentUser } from '../../domain/schemas';
import type { DeferredMenuProps } from '../components/DeferredMenu';
import { CloseIcon, KeyIcon, MailIcon, SignInIcon, UserIcon, UserPlusIcon } from '../components/Icons';
import { MenuFrame } from '../components/MenuFrame';
import { paths, signInPath, signUpPath } from '../../domain/routes';
import { useCurrentAddress } from '../hooks/useCurrentAddress';
import { isOrgAdmin, roleLabel, signOut } from '../screens/auth/session';
import { classCodeMenuLabel, sendToEngineChild, type ClassCodeView } from '../screens/classroom/classCodeState';

const itemStyles =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[focused]:text-primary-900 data-[pressed]:bg-primary-100';

/** Where sign-out goes (SPEC §2: the destination is not shown). */
export const AFTER_SIGN_OUT = paths.catalog;

/** One menu entry: a link (`href`) or a command (`onAction`), with its icon and its label. */
function Item({ id, icon, label, href, onAction }: { id: string; icon: ReactNode; label: string; href?: string; onAction?: () => void }) {
  return (
    <MenuItem id={id} href={href} onAction={onAction} className={itemStyles} textValue={label}>
      {icon}
      {label}
    </MenuItem>
  );
}

function Divider() {
  return <Separator className="my-1.5 border-t border-line" />;
}

/** 'Sign In', coming back to the current address. */
function SignInItem({ current }: { current: string }) {
  return <Item id="sign-in" icon={<SignInIcon size={18} />} label="Sign In" href={signInPath(current)} />;
}

export function ClassCodeMenu({ classCode, ...frame }: { classCode: ClassCodeView } & DeferredMenuProps) {
  const current = useCurrentAddress();
  const [, navigate] = useLocation();
  const label = classCodeMenuLabel(classCode) ?? '';
  const onClear = () => {
    void sendToEngineChild('classCode', { type: 'classCode.clear' })
      // Titles downloaded with the class code that a visitor may not read go with it.
      .then(() => import('../offline/downloads').then((m) => m.deleteGatedDownloads()).catch((error: unknown) => console.warn('Could not delete downloads', error)))
      .then(() => navigate(paths.catalog));
  };
  return (
    <MenuFrame {...frame} width="min-w-56">
      <Menu aria-label="Account" className="outline-none">
        <Item id="class-code" icon={<KeyIcon size={18} />} label={label} href={paths.classroomCatalog} />
        <Item id="clear-class-code" icon={<CloseIcon size={18} />} label="Clear Class Code" onAction={onClear} />
        <Divider />
        <SignInItem current={current} />
      </Menu>
    </MenuFrame>
  );
}

export function AnonymousMenu(frame: DeferredMenuProps) {
  const current = useCurrentAddress();
  return (
    <MenuFrame {...frame} width="min-w-56">
      <Menu aria-label="Account" className="outline-none">
        <Item id="support" icon={<MailIcon size={18} />} label="Contact Support" href={`mailto:${SUPPORT_EMAIL}`} />
        <Divider />
        <SignInItem current={current} />
        <Item id="sign-up" icon={<UserPlusIcon size={18} />} label="Sign Up" href={signUpPath(current)} />
      </Menu>
    </MenuFrame>
  );
}

export function SignedInMenu({ user, initials, ...frame }: { user: CurrentUser; initials: string } & DeferredMenuProps) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const role = roleLabel(user);
  const onSignOut = async () => {
    const failure = await signOut(queryClient);
    if (failure) console.error('Sign-out failed', failure);
    else navigate(AFTER_SIGN_OUT);
  };
  return (
    <MenuFrame {...frame} width="w-72 max-w-[calc(100vw-2rem)]">
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
        <Item id="account" icon={<UserIcon size={18} />} label="Manage Account" href={paths.account} />
        {isOrgAdmin(user) ? <Item id="organization" icon={<UserPlusIcon size={18} />} label="Manage Organization" href={paths.organization} /> : null}
        <Divider />
        <Item id="sign-out" icon={<SignInIcon size={18} className="rotate-180" />} label="Sign Out" onAction={onSignOut} />
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
  const frame: DeferredMenuProps = { button: props.button, defaultOpen: props.defaultOpen, autoFocus: props.autoFocus };
  if (props.variant === 'signedIn') return <SignedInMenu user={props.user} initials={props.initials} {...frame} />;
  if (props.variant === 'classCode') return <ClassCodeMenu classCode={props.classCode} {...frame} />;
  return <AnonymousMenu {...frame} />;
}
