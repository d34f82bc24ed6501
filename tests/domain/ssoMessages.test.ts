/** What the sign-in page says for each `?error=` code of a provider round trip (src/domain/ssoMessages.ts). */
import { describe, expect, it } from 'vitest';
import { SSO_DEFAULT_ERROR_MESSAGE, SSO_ERROR_MESSAGES, ssoErrorMessage } from '../../src/domain/ssoMessages';

describe('ssoErrorMessage', () => {
  it('tells the user what to do for each failure the issue names', () => {
    expect(ssoErrorMessage('state_mismatch')).toMatch(/Start again/);
    expect(ssoErrorMessage('invalid_code')).toMatch(/used already or has expired/);
    expect(ssoErrorMessage('access_denied')).toMatch(/cancelled/);
    expect(ssoErrorMessage('email_not_verified')).toMatch(/did not confirm your email address, so no account was made/);
    expect(ssoErrorMessage('account_not_linked')).toMatch(/Sign in with your password first, then link your school account from Manage Account/);
    expect(ssoErrorMessage('sso_provider_unavailable')).toMatch(/not answering/);
  });

  it('falls back to a general message for codes it does not know, including object keys', () => {
    for (const code of ['', 'something_new', 'constructor', '__proto__', 'toString']) expect(ssoErrorMessage(code)).toBe(SSO_DEFAULT_ERROR_MESSAGE);
  });

  it('every message is a sentence', () => {
    for (const message of Object.values(SSO_ERROR_MESSAGES)) expect(message).toMatch(/^[A-Z].*\.$/);
  });
});
