/** /{slug} and /{slug}/overview (legacy): fetch the latest version and go to /{slug}/{version}. */
import { useQuery } from '@tanstack/react-query';
import { Redirect, useSearch } from 'wouter';
import { NOVEL_NOT_FOUND_MESSAGE } from '../../../domain/constants';
import { Spinner } from '../../components/Spinner';
import { NotFoundContent, StatusCard } from '../../components/StatusPage';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { PREMIUM_CONTENT_MESSAGE } from '../../../domain/access';
import { isMissingPublication, publicationHref } from './publicationView';

export function PublicationRedirect({ slug }: { slug: string }) {
  const query = useQuery(queries.publication(slug.toLowerCase()));
  const search = useSearch();
  const missing = isMissingPublication(query.error);
  useDocumentTitle(missing ? 'Not found' : null);

  if (query.isSuccess) return <Redirect to={`${publicationHref(query.data)}${search ? `?${search}` : ''}`} replace />;
  if (query.isError) {
    if (missing) return <NotFoundContent message={NOVEL_NOT_FOUND_MESSAGE} showSupport />;
    if (query.error.message === PREMIUM_CONTENT_MESSAGE) return <Redirect to="/catalog" replace />;
    return (
      <StatusCard
        title="This title could not be loaded"
        actions={
          <button type="button" className={buttonStyles.primary} onClick={() => void query.refetch()}>
            Try again
          </button>
        }
      >
        <p>{query.error.message}</p>
      </StatusCard>
    );
  }
  return (
    <div className="grid min-h-64 place-items-center">
      <Spinner label="Opening title…" />
    </div>
  );
}
