/**
 * The shared navbar (SPEC §2): logo and title, Free Library, My Uploads (teachers with USER_UPLOAD), Shop Paperbacks
 * (external), and the account menu.
 */
import { Link, useLocation } from 'wouter';
import { PRODUCT_NAME, SHOP_URL } from '../../domain/constants';
import { ExternalIcon } from '../components/Icons';
import { LogoMark } from '../components/Logo';
import { pageContainer } from '../components/styles';
import { useCurrentUser } from '../screens/auth/session';
import { MyUploadsLink } from '../screens/uploads/MyUploadsLink';
import { canSeeMyUploads, UPLOADS_PATH } from '../screens/uploads/uploadsLink';
import { AccountMenu } from './AccountMenu';

const navLink =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-medium text-ink-muted transition-colors hover:bg-primary-50 hover:text-primary-900 aria-[current=page]:bg-primary-50 aria-[current=page]:text-primary-900';

export function Navbar() {
  const [path] = useLocation();
  const { data: user } = useCurrentUser();
  return (
    <header className="border-b border-line bg-surface">
      <div className={`${pageContainer} flex flex-wrap items-center gap-x-4 gap-y-1 py-3 sm:gap-x-8`}>
        <Link href="/" className="order-1 flex items-center gap-2.5 rounded-lg">
          <LogoMark size={36} />
          <span className="font-serif text-xl font-semibold tracking-tight text-primary-900">{PRODUCT_NAME}</span>
        </Link>
        <nav aria-label="Main" className="order-3 -mx-3 w-full sm:order-2 sm:mx-0 sm:w-auto sm:flex-1">
          <ul className="flex flex-wrap items-center gap-1">
            <li>
              <Link href="/catalog" className={navLink} aria-current={path === '/catalog' ? 'page' : undefined}>
                Free Library
              </Link>
            </li>
            {canSeeMyUploads(user) && (
              <li>
                <MyUploadsLink className={navLink} isCurrent={path === UPLOADS_PATH} />
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
        <div className="order-2 ms-auto sm:order-3">
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
