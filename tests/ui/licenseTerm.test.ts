/** Manage Organization's license line: a free trial ('ar-free-trial', SPEC §3) says so, with its last day. */
import { describe, expect, it } from 'vitest';
import { licenseTerm } from '../../src/ui/screens/auth/ManageOrganizationScreen';

describe('licenseTerm', () => {
  it('names a standard license by its term', () => {
    expect(licenseTerm({ features: ['AUDIO'], kind: 'standard', expiresOn: '2099-07-31', valid: true })).toBe('Valid through 31 July 2099');
    expect(licenseTerm({ features: ['AUDIO'], kind: 'standard', expiresOn: '2020-01-31', valid: false })).toBe('Expired on 31 January 2020');
    expect(licenseTerm({ features: ['AUDIO'], kind: 'standard', expiresOn: null, valid: true })).toBe('No expiry');
  });
  it("calls an 'ar-free-trial' license a free trial, with its end date", () => {
    expect(licenseTerm({ features: ['AUDIO'], kind: 'ar-free-trial', expiresOn: '2026-12-26', valid: true })).toBe('Free trial, valid through 26 December 2026');
    expect(licenseTerm({ features: ['AUDIO'], kind: 'ar-free-trial', expiresOn: '2026-01-02', valid: false })).toBe('Free trial, ended on 2 January 2026');
    expect(licenseTerm({ features: ['AUDIO'], kind: 'ar-free-trial', expiresOn: null, valid: true })).toBe('Free trial, no expiry');
  });
});
