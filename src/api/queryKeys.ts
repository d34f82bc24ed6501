/**
 * Every TanStack Query key of the app, in one place: the content and user queries of `queries.ts`, the signed-in
 * user, the uploads list, the organization pages, and the mutation keys. Plain tuples with no imports at run time,
 * so any chunk can use them. Invalidate by the broadest key that covers what changed (`userTitlesAll`,
 * `organizationInvitations`, …).
 */
import type { PublicationListQuery } from '../domain/schemas';

/**
 * Who a publication list or the user titles are for, when the answer depends on it: a signed-in user (their id:
 * a teacher's filter) or a class code (the teacher's ASSIGNED titles). Part of the query key, so two viewers
 * never share a cached answer.
 */
export interface ListViewer {
  /** The signed-in user's id. */
  userId?: string;
  /** The class code sent as X-Group-Code. */
  groupCode?: string;
}

export const queryKeys = {
  ping: () => ['ping'] as const,
  /** Every publication list (invalidate this when a title's editions change). */
  publicationsAll: () => ['publications'] as const,
  publications: (query: PublicationListQuery, viewer?: ListViewer) =>
    (viewer ? (['publications', query, viewer] as const) : (['publications', query] as const)),
  /** Every user-titles entry (invalidate this after a visibility change). */
  userTitlesAll: () => ['userTitles'] as const,
  userTitles: (viewer: ListViewer) => ['userTitles', viewer] as const,
  /** Every version of one title's page. */
  publicationAll: (slug: string) => ['publication', slug] as const,
  publication: (slug: string, version?: string) => ['publication', slug, version ?? null] as const,
  excerpt: (slug: string, params: Record<string, unknown>) => ['excerpt', slug, params] as const,
  passage: (editionId: number, position: number) => ['passage', editionId, position] as const,
  qr: (code: string) => ['qr', code] as const,
  /** The signed-in user, or null when signed out (`src/ui/screens/auth/session.ts`). */
  currentUser: () => ['currentUser'] as const,
  /** How the signed-in user signs in (Manage Account's Password section). */
  signInMethods: () => ['currentUser', 'signInMethods'] as const,
  /** The signed-in teacher's class activity, by their user id. */
  classActivity: (userId: string) => ['classActivity', userId] as const,
  /** The signed-in user's uploads. */
  uploads: () => ['uploads'] as const,
  organizationMembers: (organizationId: string) => ['organization', organizationId, 'members'] as const,
  organizationInvitations: (organizationId: string) => ['organization', organizationId, 'invitations'] as const,
  /** One invitation, as its invitee sees it (Accept Invitation). */
  invitation: (invitationId: string) => ['invitation', invitationId] as const,
};

/** Whether a key is a personal publication list (one with a viewer), which a teacher's curation changes. */
export function isPersonalPublicationsKey(key: readonly unknown[]): boolean {
  return key[0] === 'publications' && key.length === 3;
}

export const mutationKeys = {
  /** Every visibility change; one title's is `setTitleVisibility(titleId)`. */
  setTitleVisibilityAll: () => ['setTitleVisibility'] as const,
  setTitleVisibility: (titleId: number) => ['setTitleVisibility', titleId] as const,
  rotateGroupCode: () => ['rotateGroupCode'] as const,
};
