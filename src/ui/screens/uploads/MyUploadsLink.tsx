/** The navbar's 'My Uploads' link: external (new tab) when an uploads site is configured, else /uploads. */
import { Link } from 'wouter';
import { ExternalIcon } from '../../components/Icons';
import { myUploadsLink } from './uploadsLink';

export function MyUploadsLink({ className, isCurrent }: { className: string; isCurrent?: boolean }) {
  const link = myUploadsLink();
  if (link.external) {
    return (
      <a href={link.href} target="_blank" rel="noopener" className={className}>
        My Uploads
        <ExternalIcon size={14} />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    );
  }
  return (
    <Link href={link.href} className={className} aria-current={isCurrent ? 'page' : undefined}>
      My Uploads
    </Link>
  );
}
