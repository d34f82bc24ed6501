/**
 * The plain values of the API's wire types (sort keys, filters, roles, content types, title statuses), without
 * zod. `schemas.ts` builds its enums from these and re-exports them, so both sides still import them from there;
 * code in the catalog's entry chunk imports them from here, so a constant does not pull zod into that chunk
 * (bench/browser.ts entry budget; see docs/decisions.md).
 */
export const SORT_KEYS = ['author_a_z', 'author_z_a', 'most_recent', 'title_a_z', 'title_z_a'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
/** SPEC §3 Catalog filter values (teachers only). @default 'all' */
export const CATALOG_FILTERS = ['all', 'assigned', 'unassigned'] as const;
export type CatalogFilter = (typeof CATALOG_FILTERS)[number];
/** @default 'title_a_z' */
export const DEFAULT_SORT: SortKey = 'title_a_z';

export const RENDERING_MODES = ['DEFAULT', 'ILLUSTRATED'] as const;

/** SPEC §3 content types: the features a school license grants. */
export const CONTENT_TYPES = ['AUDIO', 'DECODE', 'GROUP_CODES', 'LANGUAGES', 'LEVELS', 'USER_UPLOAD'] as const;

/** SPEC §3 User.role, as stored and sent. */
export const USER_ROLES = ['INDIVIDUAL', 'TEACHER'] as const;

/** A user's role in an organization: owners and admins are `org:admin`. */
export const ORGANIZATION_ROLES = ['org:admin', 'org:member'] as const;

/** SPEC §4 Title visibility. */
export const TITLE_STATUSES = ['ASSIGNED', 'BLOCKED'] as const;

/**
 * The kinds of school license: 'standard', or 'ar-free-trial', SPEC §3's free-trial identifier, for a trial that
 * `npm run admin -- license grant … --trial` creates (docs/decisions.md).
 */
export const LICENSE_KINDS = ['standard', 'ar-free-trial'] as const;
export type LicenseKind = (typeof LICENSE_KINDS)[number];
/** SPEC §3 'A free-trial identifier string'. */
export const FREE_TRIAL_LICENSE_KIND: LicenseKind = 'ar-free-trial';
