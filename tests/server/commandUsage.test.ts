import { describe, expect, it } from 'vitest';
import { argumentCount } from '../../server/cli/command';
import { COMMANDS, SINGLE_COMMANDS } from '../../server/admin/commands';

describe('argumentCount: the positional arguments a usage line names', () => {
  it.each([
    ['', { min: 0, max: 0 }],
    ['<email>', { min: 1, max: 1 }],
    ['[<org>]', { min: 0, max: 1 }],
    ['<org> <FEATURES,...> [--expires YYYY-MM-DD] [--trial]', { min: 2, max: 2 }],
    ['[--last N]', { min: 0, max: 0 }],
    ['<org> --issuer <url> (--client-secret <secret> | --client-secret-file <file>) [--domain …]', { min: 1, max: 1 }],
  ])('%j', (usage, count) => {
    expect(argumentCount(usage)).toEqual(count);
  });

  it('gives every admin command its count of arguments', () => {
    const counts = Object.fromEntries([
      ...Object.entries(COMMANDS).flatMap(([group, commands]) => Object.entries(commands).map(([name, c]) => [`${group} ${name}`, argumentCount(c.usage)])),
      ...Object.entries(SINGLE_COMMANDS).map(([name, c]) => [name, argumentCount(c.usage)]),
    ]);
    expect(counts).toMatchObject({
      'qr print': { min: 1, max: 1 },
      'org create': { min: 1, max: 1 },
      'org default': { min: 1, max: 1 },
      'license grant': { min: 2, max: 2 },
      'license revoke': { min: 1, max: 1 },
      'license list': { min: 0, max: 0 },
      'user teacher': { min: 1, max: 1 },
      'user org-admin': { min: 2, max: 2 },
      'user delete': { min: 1, max: 1 },
      'user reset-link': { min: 1, max: 1 },
      'roster import': { min: 2, max: 2 },
      'sso add': { min: 1, max: 1 },
      'sso list': { min: 0, max: 1 },
      'sso remove': { min: 1, max: 1 },
      'events summary': { min: 0, max: 0 },
      outbox: { min: 0, max: 0 },
      backup: { min: 1, max: 1 },
      restore: { min: 1, max: 1 },
    });
  });
});
