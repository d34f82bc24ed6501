/**
 * Who sees which classroom control (SPEC §2 Shared layout, Classroom Library; §6 Roles and permissions), as pure
 * functions of the signed-in user and the class code, so the views hold no rules.
 */
import { hasFeature } from '../../../domain/access';
import { isTeacher } from '../../../domain/roles';
import { classroomCatalogPath, paths, withQuery } from '../../../domain/routes';
import type { CurrentUser, TitleStatus, UserTitle } from '../../../domain/schemas';

/** The class-code control and dialog title (SPEC §2 Shared layout). */
export const ENTER_CLASS_CODE = 'Enter Class Code';

/** SPEC §8 toasts of a visibility change, verbatim. */
export const VISIBILITY_TOASTS = {
  shown: 'Title shown to students',
  hidden: 'Title hidden from students',
  failed: 'Failed to update title visibility',
} as const;

/** SPEC §2 Classroom Library texts, verbatim. */
export const CLASSROOM_TEXTS = {
  heading: 'Classroom Library',
  teacherBanner: "These titles are visible to your students. Click the eye icon to hide titles from your students' library.",
  teachersOnlyBadge: 'Teachers Only',
  noVisibleTitles: 'No titles visible to students',
  teacherEmpty: 'Go to Free Library to make titles visible',
  studentEmpty: 'Ask your teacher to add titles to the Classroom Library',
  visibleToStudentsBadge: 'Visible to Students',
  settingsSignIn: 'Sign in as a teacher to manage classroom settings for this title.',
} as const;

/** '{n} titles available' (SPEC §2 Classroom Library). */
export function titlesAvailable(n: number): string {
  return `${n} ${n === 1 ? 'title' : 'titles'} available`;
}

/** Teachers and their class code are domain rules (src/domain/roles.ts), re-exported for the classroom views. */
export { isTeacher, sharingClassCode as bannerCode } from '../../../domain/roles';

/** A teacher whose license includes GROUP_CODES: the Classroom Library link and a class code of their own. */
export function isClassroomTeacher(user: CurrentUser | null | undefined): user is CurrentUser {
  return isTeacher(user) && hasFeature(user.features, 'GROUP_CODES');
}

export interface NavLinks {
  /** 'Classroom Library': class-code holders and teachers with GROUP_CODES. */
  classroomLibrary: boolean;
  /** 'Free Library': hidden while a class code is set (students never see it). */
  freeLibrary: boolean;
}

export function navLinks(user: CurrentUser | null | undefined, classCode: string | null): NavLinks {
  return { classroomLibrary: classCode !== null || isClassroomTeacher(user), freeLibrary: classCode === null };
}

/** SPEC §2 route table: '/' goes to the classroom catalog when a class code is set (or arrives in the link). */
export function rootTarget(classCode: string | null, queryString: string): string {
  const query = queryString.replace(/^\?/, '');
  const linked = new URLSearchParams(query).has('groupCode');
  return withQuery(classCode !== null || linked ? paths.classroomCatalog : paths.catalog, query);
}

/**
 * The magic link a teacher shares: the Classroom Library with the code in `groupCode`, which the app takes,
 * verifies and removes from the address (SPEC §4 Class code).
 */
export function magicLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}${classroomCatalogPath(code)}`;
}

/** Whether a title is ASSIGNED (shown to students) in the teacher's user titles; no row means not assigned. */
export function isAssigned(titles: readonly Pick<UserTitle, 'titleId' | 'status'>[] | undefined, titleId: number): boolean {
  return !!titles?.some((t) => t.titleId === titleId && t.status === 'ASSIGNED');
}

/** The status a toggle sets, and its toast. */
export function nextVisibility(assigned: boolean): { status: TitleStatus; message: string } {
  return assigned ? { status: 'BLOCKED', message: VISIBILITY_TOASTS.hidden } : { status: 'ASSIGNED', message: VISIBILITY_TOASTS.shown };
}

/** Who is looking at the Classroom Library, and so what it lists. */
export type ClassroomViewer =
  | { kind: 'teacher'; userId: string }
  | { kind: 'student'; groupCode: string }
  /** A class code is being verified (a magic link just opened). */
  | { kind: 'verifying' }
  /** Neither: the page offers to enter a class code. */
  | { kind: 'visitor' }
  /** Signed in but not a teacher. */
  | { kind: 'reader' };

export function classroomViewer(
  user: CurrentUser | null | undefined,
  classCode: { code: string | null; isVerifying: boolean },
): ClassroomViewer {
  if (isTeacher(user)) return { kind: 'teacher', userId: user.id };
  if (classCode.code !== null && !classCode.isVerifying) return { kind: 'student', groupCode: classCode.code };
  if (classCode.isVerifying) return { kind: 'verifying' };
  return user ? { kind: 'reader' } : { kind: 'visitor' };
}
