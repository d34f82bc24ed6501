import { useEffect } from 'react';
import { PRODUCT_NAME } from '../../domain/constants';

/** '{title} | Lectern' (SPEC §2), or just 'Lectern' without a title. */
export function pageTitle(title?: string | null): string {
  return title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
}

export function useDocumentTitle(title?: string | null): void {
  const text = pageTitle(title);
  useEffect(() => {
    document.title = text;
  }, [text]);
}
