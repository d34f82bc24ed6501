/**
 * Where 'My Uploads' goes (SPEC §2): the external uploads site when one is configured (VITE_UPLOADS_URL
 * at build time, else UPLOADS_URL in src/domain/constants.ts), otherwise this app's /uploads page. Pure, so the
 * navbar and tests share one rule.
 */
import { UPLOADS_URL } from '../../../domain/constants';
import { paths } from '../../../domain/routes';
import type { CurrentUser } from '../../../domain/schemas';

/** The configured external uploads site, or null. */
export function configuredUploadsUrl(env: Record<string, unknown> = import.meta.env): string | null {
  const fromEnv = typeof env.VITE_UPLOADS_URL === 'string' ? env.VITE_UPLOADS_URL.trim() : '';
  return fromEnv || UPLOADS_URL;
}

export function myUploadsLink(uploadsUrl: string | null = configuredUploadsUrl()): { href: string; external: boolean } {
  return uploadsUrl ? { href: uploadsUrl, external: true } : { href: paths.uploads, external: false };
}

/** Teachers whose features include USER_UPLOAD see 'My Uploads' (SPEC §6). The server checks the same on upload. */
export function canSeeMyUploads(user: Pick<CurrentUser, 'role' | 'features'> | null | undefined): boolean {
  return user?.role === 'TEACHER' && user.features.includes('USER_UPLOAD');
}
