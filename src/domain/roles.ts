/**
 * Who is a teacher, and who has a class code to share (SPEC §2 Shared layout, §6 Roles and permissions): pure
 * functions of the signed-in user, so the views hold no rules. They read GET /users/me as the server decides it:
 * a class code is a TEACHER's with GROUP_CODES (server/users: canHaveClassCode).
 */
import { hasFeature } from './access';
import type { CurrentUser } from './schemas';

/** A signed-in TEACHER: eye toggles, the hide/show button, Classroom Settings, the catalog filter (SPEC §6). */
export function isTeacher(user: CurrentUser | null | undefined): user is CurrentUser {
  return user?.role === 'TEACHER';
}

/**
 * Who may share with a class: a teacher with a class code of their own, while their license includes GROUP_CODES.
 * Returns that code, or null for anyone who may not share. It decides the class-code banner (Copy Magic Link), the
 * title page's 'Share with Students' (the magic link), and the links that post the magic link or a title's reader
 * address to Google Classroom or Microsoft Teams (their addresses are shareLinks.ts).
 */
export function sharingClassCode(user: CurrentUser | null | undefined): string | null {
  return isTeacher(user) && user.groupCode && hasFeature(user.features, 'GROUP_CODES') ? user.groupCode : null;
}
