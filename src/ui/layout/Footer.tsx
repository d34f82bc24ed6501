import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../domain/constants';
import { paths } from '../../domain/routes';
import { pageContainer } from '../components/styles';

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="mt-auto border-t border-line bg-surface">
      <div className={`${pageContainer} flex flex-col gap-3 py-6 text-sm text-ink-muted sm:flex-row sm:items-center sm:justify-between`}>
        <nav aria-label="Legal">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              {/* Titles stored for offline; reachable without a network. */}
              <Link href={paths.downloads} className="rounded hover:text-primary-900 hover:underline">
                Downloads
              </Link>
            </li>
            <li>
              <Link href={paths.terms} className="rounded hover:text-primary-900 hover:underline">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link href={paths.privacy} className="rounded hover:text-primary-900 hover:underline">
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
        <p>
          © {year} {PRODUCT_NAME}
        </p>
      </div>
    </footer>
  );
}
