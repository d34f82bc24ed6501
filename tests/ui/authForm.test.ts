import { describe, expect, it } from 'vitest';
import { checkAuthForm, checkEmail, checkPassword, firstInvalid, MESSAGES, withoutField } from '../../src/ui/screens/auth/authForm';

describe('account form checks', () => {
  it('sign-up needs a name, an email address and a password of 8 characters', () => {
    expect(checkAuthForm('sign-up', { name: ' ', email: '', password: '' })).toEqual({
      name: 'Enter your name.',
      email: 'Enter your email.',
      password: 'Enter your password.',
    });
    expect(checkAuthForm('sign-up', { name: 'Ada', email: 'ada@example', password: 'abc123' })).toEqual({
      email: 'Enter a valid email address.',
      password: 'Password must be at least 8 characters.',
    });
    expect(checkAuthForm('sign-up', { name: 'Ada', email: 'ada@example.org', password: 'abcd1234' })).toEqual({});
  });

  it('sign-in does not judge the length of an existing password, nor ask for a name', () => {
    expect(checkAuthForm('sign-in', { name: '', email: 'ada@example.org', password: 'abc' })).toEqual({});
    expect(checkAuthForm('sign-in', { name: '', email: 'ada example.org', password: '' })).toEqual({
      email: MESSAGES.emailInvalid,
      password: MESSAGES.passwordRequired,
    });
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPassword('🔑🔑🔑🔑🔑🔑🔑', true)).toBe(MESSAGES.passwordTooShort);
    expect(checkPassword('🔑🔑🔑🔑🔑🔑🔑🔑', true)).toBeNull();
    expect(checkEmail('  a@b.co ')).toBeNull();
  });

  it('finds the first invalid field and clears one field', () => {
    expect(firstInvalid({ password: 'x', email: 'y' }, ['name', 'email', 'password'])).toBe('email');
    expect(firstInvalid({}, ['email'])).toBeNull();
    const errors = { email: 'e', password: 'p' };
    expect(withoutField(errors, 'email')).toEqual({ password: 'p' });
    expect(withoutField(errors, 'name')).toBe(errors);
  });
});
