/** Registered routes whose screens arrive in later issues (the legal texts). Each says so plainly and offers a way on. */
import { SUPPORT_EMAIL } from '../../../domain/constants';
import { StatusCard } from '../../components/StatusPage';
import { linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';

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
