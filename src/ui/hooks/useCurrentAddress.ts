/** The current path with its query string: the address a sign-in link comes back to (redirectUrl). */
import { useLocation, useSearch } from 'wouter';
import { withQuery } from '../../domain/routes';

export function useCurrentAddress(): string {
  const [path] = useLocation();
  return withQuery(path, useSearch());
}
