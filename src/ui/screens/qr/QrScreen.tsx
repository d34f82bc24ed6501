/**
 * QR redirect (SPEC §2 QR route): 'redirecting...' while the target is fetched, then navigate to it. Only
 * same-origin targets are followed (another domain gives 'Navigation to a different domain is blocked.').
 * Any failure shows the 404 page.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { NOVEL_NOT_FOUND_MESSAGE } from '../../../domain/constants';
import { Spinner } from '../../components/Spinner';
import { NotFoundContent, StatusCard } from '../../components/StatusPage';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { CROSS_DOMAIN_MESSAGE, sameOriginPath } from '../../platform/navigation';

export const REDIRECTING_TEXT = 'redirecting...';

export function QrScreen({ code }: { code: string }) {
  const query = useQuery(queries.qr(code));
  const [, navigate] = useLocation();
  const target = query.data ? sameOriginPath(query.data.url, window.location.origin) : null;
  const blocked = query.isSuccess && target === null;
  useDocumentTitle(query.isError ? 'Not found' : blocked ? 'Redirect blocked' : 'Redirecting');

  useEffect(() => {
    if (target) navigate(target, { replace: true });
  }, [target, navigate]);

  if (query.isError) {
    // SPEC §8: a QR failure shows the 404 page with the contact-support message.
    return <NotFoundContent message={NOVEL_NOT_FOUND_MESSAGE} showSupport />;
  }
  if (blocked) {
    return (
      <StatusCard title="This link can’t be opened">
        <p role="alert">{CROSS_DOMAIN_MESSAGE}</p>
      </StatusCard>
    );
  }
  return (
    <div className="grid min-h-64 place-items-center">
      <Spinner label={REDIRECTING_TEXT} />
    </div>
  );
}
