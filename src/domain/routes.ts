/**
 * Every address of the app (SPEC §2 route table), built in one place: the fixed pages in `paths`, a builder for
 * each address with parameters, and the `patterns` the route table (`src/ui/router.tsx`) matches them with. Views
 * link and redirect with these instead of writing paths by hand. Pure and framework-free, so the engine and the
 * server may use it too. Reader addresses keep their own rules in `readerUrl.ts`; `readerPath` here is its builder.
 */
import { buildReaderPath, type ReaderAddress, type ReaderEdition } from './readerUrl';

/** The fixed pages. */
export const paths = {
  /** '/' redirects to the Classroom Library with a class code, else to the Free Library. */
  root: '/',
  /** The Free Library. */
  catalog: '/catalog',
  /** The Classroom Library. */
  classroomCatalog: '/classroom-catalog',
  signIn: '/sign-in',
  signUp: '/sign-up',
  /** Forgot password: asks for the email the reset link goes to. */
  forgotPassword: '/forgot-password',
  /** Sets a new password with `?token=` from a reset link. */
  resetPassword: '/reset-password',
  /** Manage Account. */
  account: '/account',
  /** Manage Organization. */
  organization: '/organization',
  /** A teacher's own texts. */
  uploads: '/uploads',
  notFound: '/not-found',
  terms: '/terms',
  privacy: '/privacy',
  debug: '/debug',
  /** Titles downloaded for offline. */
  downloads: '/downloads',
  /** The QR prefix; a bare '/qr' goes to the catalog. */
  qr: '/qr',
} as const;

/**
 * The route table's patterns (wouter syntax) for the addresses with parameters, matching the builders below, in
 * the order the table (`src/ui/router.tsx`) tries them: the listen and teaser shapes before the publication and
 * reader ones, which would otherwise match them.
 */
export const patterns = {
  acceptInvitation: '/accept-invitation/:id',
  qr: '/qr/:code',
  listen: '/listen/:slug/:version/:editionSlug/:position',
  selectPassage: '/listen/:slug/:version/:editionSlug',
  /** Any other address under /listen: not found. */
  listenOther: '/listen/*',
  teaser: '/teaser/:slug/:version/:edition/:position',
  /** The old overview address: the publication's current version. */
  publicationOverview: '/:slug/overview',
  /** Read Online without a version: the latest one. */
  readLatest: '/:slug/read',
  read: '/:slug/:version/read',
  /** A reader address (or an old one without a version, which the reader redirects). */
  reader: '/:slug/:version/*',
  publication: '/:slug/:version',
  /** A publication without a version: its current version. */
  publicationLatest: '/:slug',
} as const;

/** `path` with a query string (with or without its leading '?'), or `path` alone when the query is empty. */
export function withQuery(path: string, query: string): string {
  const q = query.replace(/^\?/, '');
  return q ? `${path}?${q}` : path;
}

/** '/sign-in' or '/sign-up' with the address to come back to in `redirectUrl` (SPEC §2). */
export function withRedirect(path: typeof paths.signIn | typeof paths.signUp, redirectUrl: string): string {
  return withQuery(path, new URLSearchParams({ redirectUrl }).toString());
}

/** '/sign-in?redirectUrl=…'. */
export function signInPath(redirectUrl: string): string {
  return withRedirect(paths.signIn, redirectUrl);
}

/** '/sign-up?redirectUrl=…'. */
export function signUpPath(redirectUrl: string): string {
  return withRedirect(paths.signUp, redirectUrl);
}

/** A publication's page, '/{slug}/{version}'; '/{slug}' (the latest version) without a version. */
export function publicationPath(slug: string, version?: string | null): string {
  return version ? `/${slug}/${version}` : `/${slug}`;
}

/** Read Online, '/{slug}/{version}/read', keeping a query string (SPEC §2). */
export function publicationReadPath(slug: string, version: string, query = ''): string {
  return withQuery(`${publicationPath(slug, version)}/read`, query);
}

/** The reader, '/{slug}/{version}/{language}:{level}[/{secondary}]/{position}', lowercased (`readerUrl.ts`). */
export function readerPath(address: ReaderAddress): string {
  return buildReaderPath(address);
}

/** The listen pages: '/listen/{slug}/{version}/{editionSlug}' selects a passage, with '/{position}' it plays. */
export function listenPath(slug: string, version: string, editionSlug: string, position?: number): string {
  const base = `/listen/${slug}/${version}/${editionSlug}`;
  return position === undefined ? base : `${base}/${position}`;
}

/** The public teaser page, '/teaser/{slug}/{version}/{language}:{level}/{position}', lowercased. */
export function teaserPath(slug: string, version: string, edition: ReaderEdition, position: number): string {
  return `/teaser/${slug}/${version}/${edition.language}:${edition.level}/${position}`.toLowerCase();
}

/** A QR code's address, '/qr/{code}', which resolves to the reader. */
export function qrPath(code: string): string {
  return `${paths.qr}/${encodeURIComponent(code)}`;
}

/** A password reset link's page, '/reset-password?token=…'. */
export function resetPasswordPath(token: string): string {
  return `${paths.resetPassword}?token=${encodeURIComponent(token)}`;
}

/** The Accept Invitation page of an invite link. */
export function acceptInvitationPath(invitationId: string): string {
  return `/accept-invitation/${encodeURIComponent(invitationId)}`;
}

/** The Classroom Library with a class code in `groupCode` (a teacher's magic link, SPEC §4 Class code). */
export function classroomCatalogPath(groupCode?: string): string {
  return groupCode === undefined ? paths.classroomCatalog : `${paths.classroomCatalog}?groupCode=${encodeURIComponent(groupCode)}`;
}

/**
 * SPEC §2 `legacyEditionSlug`: an older link's edition, 'language-LEVEL' ('es-GOLD'; a bare level means English).
 * `legacyEditionTarget` (legacyEdition.ts, loaded only for such an address) says where it goes.
 */
export const LEGACY_EDITION_PARAM = 'legacyEditionSlug';
