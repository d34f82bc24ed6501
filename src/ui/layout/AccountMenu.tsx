/** The anonymous right-hand menu (SPEC §2 Shared layout): Contact Support, Sign In, Sign Up. */
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { useLocation, useSearch } from 'wouter';
import { SUPPORT_EMAIL } from '../../domain/constants';
import { ChevronDownIcon, MailIcon, SignInIcon, UserIcon, UserPlusIcon } from '../components/Icons';
import { withRedirect } from '../platform/navigation';

const itemStyles =
  'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[focused]:text-primary-900 data-[pressed]:bg-primary-100';

export function AccountMenu() {
  const [path] = useLocation();
  const search = useSearch();
  const current = search ? `${path}?${search}` : path;
  return (
    <MenuTrigger>
      <Button
        aria-label="Account menu"
        className="flex items-center gap-1 rounded-full border border-line bg-surface py-1 ps-1 pe-2 text-primary-900 transition-colors data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100"
      >
        <span className="grid size-8 place-items-center rounded-full bg-primary-100 text-primary-800">
          <UserIcon size={18} />
        </span>
        <ChevronDownIcon size={16} />
      </Button>
      <Popover
        placement="bottom end"
        offset={8}
        className="min-w-56 rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none"
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
