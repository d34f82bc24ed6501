/**
 * Reader entry (SPEC §2): /{slug}/read and /{slug}/{version}/read. Picks the preferred edition when it exists,
 * otherwise the publication's default left reader, position 1, and goes to the reader address keeping the query.
 * An unknown publication goes to the catalog. Stored reader settings arrive with the real reader.
 */
import { useQuery } from '@tanstack/react-query';
import { Redirect, useSearch } from 'wouter';
import type { Publication } from '../../../domain/schemas';
import { Spinner } from '../../components/Spinner';
import { StatusCard } from '../../components/StatusPage';
import { buttonStyles } from '../../components/styles';
import { queries } from '../../platform/api';
import { isMissingPublication } from '../publication/PublicationScreen';
import { readerHref, type EditionRef } from './readerPath';

export function chooseEdition(publication: Publication, preferred?: EditionRef | null): EditionRef {
  if (preferred && publication.editions.some((e) => e.language.code === preferred.language && e.level === preferred.level)) {
    return preferred;
  }
  return publication.defaultReader.left;
}

export function ReaderEntry({
  slug,
  version,
  preferred,
  position = 1,
}: {
  slug: string;
  version?: string;
  preferred?: EditionRef | null;
  position?: number;
}) {
  const query = useQuery(queries.publication(slug.toLowerCase(), version?.toLowerCase()));
  const search = useSearch();

  if (query.isSuccess) {
    const p = query.data;
    return <Redirect to={readerHref(p.slug, p.version, chooseEdition(p, preferred), Math.max(1, position), { query: search })} replace />;
  }
  if (query.isError) {
    if (isMissingPublication(query.error)) return <Redirect to="/catalog" replace />;
    return (
      <main id="main" className="px-4">
        <StatusCard
          title="This title could not be opened"
          actions={
            <button type="button" className={buttonStyles.primary} onClick={() => void query.refetch()}>
              Try again
            </button>
          }
        >
          <p>{query.error.message}</p>
        </StatusCard>
      </main>
    );
  }
  return (
    <main id="main" className="grid min-h-screen place-items-center">
      <Spinner label="Opening reader…" />
    </main>
  );
}
