/** /{slug} and /{slug}/overview (legacy): fetch the latest version and go to /{slug}/{version}. */
import { useQuery } from '@tanstack/react-query';
import { Redirect, useSearch } from 'wouter';
import { publicationPath, withQuery } from '../../../domain/routes';
import { Spinner } from '../../components/Spinner';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { PublicationError } from './PublicationStates';
import { isMissingPublication } from './publicationView';

export function PublicationRedirect({ slug }: { slug: string }) {
  const query = useQuery(queries.publication(slug.toLowerCase()));
  const search = useSearch();
  useDocumentTitle(isMissingPublication(query.error) ? 'Not found' : null);

  if (query.isSuccess) return <Redirect to={withQuery(publicationPath(query.data.slug, query.data.version), search)} replace />;
  if (query.isError) return <PublicationError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <div className="grid min-h-64 place-items-center">
      <Spinner label="Opening title…" />
    </div>
  );
}
