/** The classroom rules the views use (SPEC §2 Shared layout, Classroom Library; §4 Title visibility; §6 Roles). */
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../src/domain/schemas';
import { storageKey } from '../../src/engine/settings';
import { STORED_CLASS_CODE_KEY, classCodeMenuLabel } from '../../src/ui/screens/classroom/classCodeState';
import {
  bannerCode,
  classroomViewer,
  isAssigned,
  magicLink,
  navLinks,
  nextVisibility,
  rootTarget,
  titlesAvailable,
} from '../../src/ui/screens/classroom/classroom';

const user = (over: Partial<CurrentUser> = {}): CurrentUser => ({
  id: 'u1',
  email: 't@example.org',
  emailVerified: false,
  name: 'Tess Teacher',
  firstName: 'Tess',
  lastName: 'Teacher',
  role: 'TEACHER',
  features: ['GROUP_CODES', 'LEVELS'],
  groupCode: 'ABCD1234',
  organizationMemberships: [],
  ...over,
});

describe('classroom rules', () => {
  it('reads the class code from the key the engine stores it under', () => {
    expect(STORED_CLASS_CODE_KEY).toBe(storageKey('groupCode'));
  });

  it('navbar: Classroom Library for class-code holders and teachers with GROUP_CODES; Free Library hidden with a code', () => {
    expect(navLinks(null, null)).toEqual({ classroomLibrary: false, freeLibrary: true });
    expect(navLinks(null, 'ABCD1234')).toEqual({ classroomLibrary: true, freeLibrary: false });
    expect(navLinks(user(), null)).toEqual({ classroomLibrary: true, freeLibrary: true });
    expect(navLinks(user({ features: [] }), null)).toEqual({ classroomLibrary: false, freeLibrary: true });
    expect(navLinks(user({ role: 'INDIVIDUAL' }), null)).toEqual({ classroomLibrary: false, freeLibrary: true });
  });

  it("'/' goes to the Classroom Library with a code (stored or linked), keeping the query", () => {
    expect(rootTarget(null, '')).toBe('/catalog');
    expect(rootTarget('ABCD1234', '')).toBe('/classroom-catalog');
    expect(rootTarget(null, '?groupCode=WXYZ9876')).toBe('/classroom-catalog?groupCode=WXYZ9876');
  });

  it('the magic link is the Classroom Library with groupCode', () => {
    expect(magicLink('http://127.0.0.1:3000/', 'ABCD1234')).toBe('http://127.0.0.1:3000/classroom-catalog?groupCode=ABCD1234');
  });

  it('the class-code banner needs a code of their own and GROUP_CODES', () => {
    expect(bannerCode(user())).toBe('ABCD1234');
    expect(bannerCode(user({ groupCode: null }))).toBeNull();
    expect(bannerCode(user({ features: ['LEVELS'] }))).toBeNull();
    expect(bannerCode(null)).toBeNull();
  });

  it("the menu label: 'Class Code: {code}', with '!' when the last check failed", () => {
    expect(classCodeMenuLabel({ code: 'ABCD1234', isInvalid: false })).toBe('Class Code: ABCD1234');
    expect(classCodeMenuLabel({ code: 'ABCD1234', isInvalid: true })).toBe('Class Code: ABCD1234!');
    expect(classCodeMenuLabel({ code: null, isInvalid: false })).toBeNull();
  });

  it('who looks at the Classroom Library', () => {
    const none = { code: null, isVerifying: false };
    expect(classroomViewer(user(), none)).toEqual({ kind: 'teacher', userId: 'u1' });
    expect(classroomViewer(null, { code: 'ABCD1234', isVerifying: false })).toEqual({ kind: 'student', groupCode: 'ABCD1234' });
    expect(classroomViewer(null, { code: null, isVerifying: true })).toEqual({ kind: 'verifying' });
    expect(classroomViewer(null, none)).toEqual({ kind: 'visitor' });
    expect(classroomViewer(user({ role: 'INDIVIDUAL' }), none)).toEqual({ kind: 'reader' });
  });

  it("visibility: no row or BLOCKED is not assigned; a toggle flips it with its toast; '{n} titles available'", () => {
    const rows = [
      { titleId: 1, status: 'ASSIGNED' as const },
      { titleId: 2, status: 'BLOCKED' as const },
    ];
    expect([1, 2, 3].map((id) => isAssigned(rows, id))).toEqual([true, false, false]);
    expect(nextVisibility(true)).toEqual({ status: 'BLOCKED', message: 'Title hidden from students' });
    expect(nextVisibility(false)).toEqual({ status: 'ASSIGNED', message: 'Title shown to students' });
    expect(titlesAvailable(3)).toBe('3 titles available');
    expect(titlesAvailable(0)).toBe('0 titles available');
  });
});
