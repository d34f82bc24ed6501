/**
 * The shared navbar (SPEC §2): logo and title, Classroom Library (class-code holders, teachers with GROUP_CODES),
 * Free Library (hidden while a class code is set), My Uploads (teachers with USER_UPLOAD), Shop Paperbacks
 * (external), 'Enter Class Code' for an anonymous visitor without one, and the account menu.
 *
 * On a page about one title, that page adds the title with its tooltip '{title} by {author}' to this row, the
 * parent of the 'Main' navigation (src/ui/layout/NavbarTitle.tsx, a portal), so the entry carries none of it. Keep
 * the row's own children unconditional, so the portal's node stays last among them.
 */
import { Link, useLocation } from 'wouter';
import { PRODUCT_NAME, SHOP_URL } from '../../domain/constants';
import { ExternalIcon } from '../components/Icons';
import { LogoMark } from '../components/Logo';
import { pageContainer } from '../components/styles';
import { useCurrentUser } from '../screens/auth/session';
import { ClassCodeDialogTrigger } from '../screens/classroom/ClassCodeButton';
import { useClassCode } from '../screens/classroom/classCodeState';
import { navLinks } from '../screens/classroom/classroom';
import { MyUploadsLink } from '../screens/uploads/MyUploadsLink';
import { canSeeMyUploads } from '../screens/uploads/uploadsLink';
import { paths } from '../../domain/routes';
import { AccountMenu } from './AccountMenu';

const navLink =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:bg-primary-50 hover:text-primary-900 aria-[current=page]:bg-primary-50 aria-[current=page]:text-primary-900';

export function Navbar() {
  const [path] = useLocation();
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  const links = navLinks(user, classCode.code);
  return (
    <header className="border-b border-line bg-surface">
      <div className={`${pageContainer} flex flex-wrap items-center gap-x-4 gap-y-1 py-3 sm:gap-x-8`}>
        <Link href={paths.root} className="order-1 flex items-center gap-2.5 rounded-lg">
          <LogoMark size={36} />
          <span className="font-serif text-xl font-semibold tracking-tight text-primary-900">{PRODUCT_NAME}</span>
        </Link>
        <nav aria-label="Main" className="order-3 -mx-3 w-full sm:order-2 sm:mx-0 sm:w-auto sm:flex-1">
          <ul className="flex flex-wrap items-center gap-1">
            {links.classroomLibrary && (
              <li>
                <Link href={paths.classroomCatalog} className={navLink} aria-current={path === paths.classroomCatalog ? 'page' : undefined}>
                  Classroom Library
                </Link>
              </li>
            )}
            {links.freeLibrary && (
              <li>
                <Link href={paths.catalog} className={navLink} aria-current={path === paths.catalog ? 'page' : undefined}>
                  Free Library
                </Link>
              </li>
            )}
            {canSeeMyUploads(user) && (
              <li>
                <MyUploadsLink className={navLink} isCurrent={path === paths.uploads} />
              </li>
            )}
            <li>
              <a href={SHOP_URL} target="_blank" rel="noopener" className={navLink}>
                Shop Paperbacks
                <ExternalIcon size={14} />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </nav>
        <div className="order-2 ms-auto flex items-center gap-2 sm:order-3">
          {user === null && classCode.code === null && (
            <ClassCodeDialogTrigger className="rounded-lg px-3 py-2 text-sm font-medium text-primary-800 transition-colors data-[hovered]:bg-primary-50 data-[hovered]:text-primary-900" />
          )}
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
