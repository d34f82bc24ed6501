/** Who is a teacher and who may share with a class (src/domain/roles.ts; SPEC §6 Roles). */
import { describe, expect, it } from 'vitest';
import { isTeacher, sharingClassCode } from '../../src/domain/roles';
import type { CurrentUser } from '../../src/domain/schemas';

function user(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u1',
    email: 'tess@example.org',
    emailVerified: true,
    name: 'Tess Teacher',
    firstName: 'Tess',
    lastName: 'Teacher',
    role: 'TEACHER',
    features: ['GROUP_CODES', 'LEVELS'],
    groupCode: 'ABCD1234',
    organizationMemberships: [],
    ...overrides,
  };
}

describe('roles', () => {
  it('a teacher is a signed-in user with the TEACHER role', () => {
    expect(isTeacher(user())).toBe(true);
    expect(isTeacher(user({ role: 'INDIVIDUAL' }))).toBe(false);
    expect(isTeacher(user({ role: null }))).toBe(false);
    expect(isTeacher(null)).toBe(false);
    expect(isTeacher(undefined)).toBe(false);
  });

  it('only a teacher with a class code of their own and GROUP_CODES may share with a class', () => {
    expect(sharingClassCode(user())).toBe('ABCD1234');
    expect(sharingClassCode(user({ role: 'INDIVIDUAL' }))).toBeNull();
    expect(sharingClassCode(user({ role: null }))).toBeNull();
    expect(sharingClassCode(user({ features: ['LEVELS', 'AUDIO'] }))).toBeNull();
    expect(sharingClassCode(user({ groupCode: null }))).toBeNull();
    // A signed-out visitor, even one holding a student's class code, shares nothing.
    expect(sharingClassCode(null)).toBeNull();
    expect(sharingClassCode(undefined)).toBeNull();
  });
});
