/**
 * An older link to a title with `?legacyEditionSlug=es-GOLD` (SPEC §2): the reader address of that edition
 * (src/domain/legacyEdition.ts), or the route table when the address is not a title's. A lazy chunk,
 * loaded only for an address with that parameter, so the catalog's entry JS does not carry the rule.
 */
import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { legacyEditionTarget } from '../../../domain/legacyEdition';

export default function LegacyEditionRedirect({ children }: { children: ReactNode }) {
  const [path] = useLocation();
  const search = useSearch();
  const target = legacyEditionTarget(path, search);
  return target ? <Redirect to={target} replace /> : <>{children}</>;
}
