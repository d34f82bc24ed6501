/** The hosted widget's hash routes on /sign-in and /sign-up (src/domain/authHash.ts). */
import { describe, expect, it } from 'vitest';
import { authHashRedirect, authHashRoute, hashStep, RESET_PASSWORD_HASH } from '../../src/domain/authHash';

describe('hashStep', () => {
  it('reads the first segment of the hash path', () => {
    expect(hashStep('')).toBe('');
    expect(hashStep('#')).toBe('');
    expect(hashStep('#/')).toBe('');
    expect(hashStep('#/factor-one')).toBe('factor-one');
    expect(hashStep('#/Factor-One/abc?x=1')).toBe('factor-one');
    expect(hashStep('#factor-two')).toBe('factor-two');
  });
});

describe('authHashRoute', () => {
  it('shows the sign-in form for every sign-in step', () => {
    for (const hash of ['', '#/', '#/factor-one', '#/factor-two', '#/choose', '#/sso-callback'])
      expect(authHashRoute('sign-in', hash), hash).toEqual({ mode: 'sign-in', step: 'form', hash: '' });
  });

  it('shows the sign-up form for every sign-up step', () => {
    for (const hash of ['', '#/continue', '#/verify-email-address', '#/verify-phone-number', '#/sso-callback'])
      expect(authHashRoute('sign-up', hash), hash).toEqual({ mode: 'sign-up', step: 'form', hash: '' });
  });

  it("sends the other widget's steps to its form", () => {
    expect(authHashRoute('sign-in', '#/verify-email-address')).toEqual({ mode: 'sign-up', step: 'form', hash: '' });
    expect(authHashRoute('sign-up', '#/factor-one')).toEqual({ mode: 'sign-in', step: 'form', hash: '' });
  });

  it('keeps the password-reset step, on sign-in', () => {
    for (const mode of ['sign-in', 'sign-up'] as const)
      for (const hash of ['#/reset-password', '#/reset-password-success', '#/forgot-password'])
        expect(authHashRoute(mode, hash)).toEqual({ mode: 'sign-in', step: 'reset-password', hash: RESET_PASSWORD_HASH });
  });

  it('drops an unknown hash', () => {
    expect(authHashRoute('sign-in', '#/nothing-here')).toEqual({ mode: 'sign-in', step: 'form', hash: '' });
    expect(authHashRoute('sign-up', '#<script>')).toEqual({ mode: 'sign-up', step: 'form', hash: '' });
  });
});

describe('authHashRedirect', () => {
  it('leaves a plain address alone', () => {
    expect(authHashRedirect('sign-in', '?redirectUrl=%2Fcatalog', '')).toBeNull();
    expect(authHashRedirect('sign-up', '', '#')).toBeNull();
  });

  it('replaces a widget step with the plain form, keeping the redirect target', () => {
    expect(authHashRedirect('sign-in', '?redirectUrl=%2Fcatalog', '#/factor-one')).toBe('/sign-in?redirectUrl=%2Fcatalog');
    expect(authHashRedirect('sign-up', '', '#/verify-email-address')).toBe('/sign-up');
    expect(authHashRedirect('sign-up', 'redirectUrl=%2Fx', '#/factor-one')).toBe('/sign-in?redirectUrl=%2Fx');
  });

  it('sends a password-reset step to the Forgot Password page', () => {
    expect(authHashRedirect('sign-in', '', '#/reset-password')).toBe('/forgot-password');
    expect(authHashRedirect('sign-up', '', '#/forgot-password')).toBe('/forgot-password');
    expect(authHashRedirect('sign-in', '?redirectUrl=%2Fcatalog', '#/reset-password-success')).toBe('/forgot-password');
  });
});
