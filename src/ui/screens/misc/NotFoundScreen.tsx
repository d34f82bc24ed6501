import { PAGE_NOT_FOUND_MESSAGE } from '../../../domain/constants';
import { NotFoundContent } from '../../components/StatusPage';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';

/** /not-found (SPEC §8): 'The page you are looking for doesn't exist' and 'Go to Lectern'. */
export function NotFoundScreen() {
  useDocumentTitle('Page not found');
  return <NotFoundContent message={PAGE_NOT_FOUND_MESSAGE} />;
}
