/** Registered routes whose screens arrive in later issues. Each says so plainly and offers a way on. */
import { Link } from 'wouter';
import { SUPPORT_EMAIL } from '../../../domain/constants';
import { StatusCard } from '../../components/StatusPage';
import { buttonStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';

export function ClassroomCatalogScreen() {
  useDocumentTitle('Classroom Library');
  return (
    <StatusCard
      title="Classroom Library"
      actions={
        <Link href="/catalog" className={buttonStyles.primary}>
          Go to Free Library
        </Link>
      }
    >
      <p>Class codes and classroom libraries are coming soon. Until then, every title in the Free Library is open to all readers.</p>
    </StatusCard>
  );
}

export function LegalScreen({ kind }: { kind: 'terms' | 'privacy' }) {
  const title = kind === 'terms' ? 'Terms of Service' : 'Privacy Policy';
  useDocumentTitle(title);
  return (
    <StatusCard title={title}>
      <p>
        The full text is being prepared. If you have a question in the meantime, write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={linkStyles}>
          {SUPPORT_EMAIL}
        </a>
        .
      </p>
      {kind === 'privacy' && (
        <p>
          Lectern stores one random identifier in your browser so the service can tell visits apart. It is not linked to
          your name.
        </p>
      )}
    </StatusCard>
  );
}
