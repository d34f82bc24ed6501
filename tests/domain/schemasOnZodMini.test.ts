/**
 * The shared schemas on zod/mini, the zod the client's build bundles (scripts/zod-mini-for-client.ts), against the
 * same schemas on classic zod, which the server and the other tests run: each value parses to the same data on both,
 * a bad one fails on both at the same place, and the messages the schemas write themselves are the same words.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fixturePassage, fixturePublication } from '../fixtures/publication';

async function sharedModules(build: 'classic' | 'mini') {
  vi.resetModules();
  if (build === 'mini') vi.doMock('zod', () => vi.importActual('zod/mini'));
  else vi.doUnmock('zod');
  return {
    schemas: await import('../../src/domain/schemas'),
    settings: await import('../../src/domain/settings'),
    offline: await import('../../src/domain/offline'),
    analytics: await import('../../src/domain/analyticsSchema'),
    textRules: await import('../../src/domain/textRules'),
    roster: await import('../../src/domain/rosterSchemas'),
    sso: await import('../../src/domain/sso'),
    validation: await import('../../src/api/validation'),
    organization: await import('../../src/api/organizationSchemas'),
  };
}

type Shared = Awaited<ReturnType<typeof sharedModules>>;
type Parser = { safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: { code: string; path: PropertyKey[]; message: string }[] } } };

let classic: Shared;
let mini: Shared;

beforeAll(async () => {
  classic = await sharedModules('classic');
  mini = await sharedModules('mini');
  vi.doUnmock('zod');
});

/** What a parse gives, in a form both builds can be compared by: the data, or where and why it failed. */
function outcome(schema: unknown, value: unknown) {
  const result = (schema as Parser).safeParse(value);
  if (result.success) return { data: result.data };
  return { issues: result.error!.issues.map((issue) => ({ code: issue.code, path: issue.path })) };
}

/** The same value through the same schema on both builds. */
function expectSameOutcome(pick: (shared: Shared) => unknown, value: unknown) {
  const onMini = outcome(pick(mini), value);
  expect(onMini).toEqual(outcome(pick(classic), value));
  return onMini;
}

function messages(schema: unknown, value: unknown): string[] {
  const result = (schema as Parser).safeParse(value);
  return result.success ? [] : result.error!.issues.map((issue) => issue.message);
}

describe('the shared schemas on zod/mini', () => {
  it('are built on zod/mini here and on classic zod in the rest of the tests', () => {
    // A classic schema has the chaining methods; a mini one has only .check() and the parse functions.
    expect('optional' in classic.schemas.PassageSchema).toBe(true);
    expect('optional' in mini.schemas.PassageSchema).toBe(false);
    expect(typeof mini.schemas.PassageSchema.check).toBe('function');
  });

  it('read the API answers the reader starts with to the same values', () => {
    const publication = fixturePublication();
    expect(expectSameOutcome((s) => s.schemas.PublicationSchema, publication)).toEqual({ data: publication });
    const passage = { ...fixturePassage(2, 1), audio: { url: '/media/a.mp3', speechMarks: [{ offset: 0, time: 0 }, { offset: 4, time: 310 }] } };
    expect(expectSameOutcome((s) => s.schemas.PassageSchema, passage)).toEqual({ data: passage });
    const list = { items: [publication], total: 1, page: 1, pageSize: 16 };
    expect(expectSameOutcome((s) => s.schemas.PublicationListSchema, list).data).toBeDefined();
  });

  it('refuse the same malformed answers at the same fields', () => {
    const publication = fixturePublication();
    const badEdition = { ...publication, editions: [{ ...publication.editions[0], passageCount: 1.5 }] };
    expect(expectSameOutcome((s) => s.schemas.PublicationSchema, badEdition).issues).toEqual([
      expect.objectContaining({ path: ['editions', 0, 'passageCount'] }),
    ]);
    expect(expectSameOutcome((s) => s.schemas.PassageSchema, { ...fixturePassage(2, 1), position: 0 }).issues).toHaveLength(1);
    expect(expectSameOutcome((s) => s.schemas.PassageSchema, { ...fixturePassage(2, 1), imageAlt: undefined }).issues).toHaveLength(1);
    expect(expectSameOutcome((s) => s.schemas.ApiErrorBodySchema, { errors: [] }).issues).toHaveLength(1);
  });

  it('tell narration answers apart by status, with the head of a narration still being made', () => {
    const ready = { passageId: 7, status: 'ready', audio: { url: '/a.mp3', speechMarks: [], duration: 1200, voice: 'flite-slt' } };
    const generating = { passageId: 7, status: 'generating', partial: { url: '/h.mp3', speechMarks: [{ offset: 0, time: 0 }], duration: 400, seam: 380 } };
    expect(expectSameOutcome((s) => s.schemas.PassageAudioSchema, ready)).toEqual({ data: ready });
    expect(expectSameOutcome((s) => s.schemas.PassageAudioSchema, generating)).toEqual({ data: generating });
    expect(expectSameOutcome((s) => s.schemas.PassageAudioSchema, { ...generating, partial: { ...generating.partial, seam: -1 } }).issues).toHaveLength(1);
    expect(expectSameOutcome((s) => s.validation.AudioOnlyAnswerSchema, fixturePassage(2, 1, 'licenseRequired')).data).toBeDefined();
  });

  it('fill the same defaults and keep the same unknown keys', () => {
    const user = {
      id: 'u1',
      email: 'a@example.org',
      emailVerified: true,
      name: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'TEACHER',
      features: ['GROUP_CODES'],
      groupCode: 'ABCD1234',
      organizationMemberships: [
        { role: 'org:admin', organization: { id: 'o1', slug: 'school', name: 'School' }, license: { features: [], expiresOn: null, valid: true } },
      ],
    };
    const parsed = expectSameOutcome((s) => s.schemas.CurrentUserSchema, user).data as typeof user;
    expect(parsed.organizationMemberships[0]!.license).toEqual({ features: [], kind: 'standard', expiresOn: null, valid: true });
    expect(expectSameOutcome((s) => s.validation.SessionSchema, null)).toEqual({ data: null });
    expect(expectSameOutcome((s) => s.validation.SessionSchema, { user: { id: 'u1', extra: 1 }, session: {} })).toEqual({
      data: { user: { id: 'u1', extra: 1 }, session: {} },
    });
    const invitation = { id: 'i1', email: 'b@example.org', role: 'member', status: 'pending', organizationId: 'o1', expiresAt: '2026-12-01T00:00:00.000Z' };
    const details = { ...invitation, organizationName: 'School', organizationSlug: 'school', inviterEmail: 'a@example.org', more: true };
    expect(expectSameOutcome((s) => s.organization.InvitationDetailsSchema, details)).toEqual({
      data: { ...details, expiresAt: new Date('2026-12-01T00:00:00.000Z') },
    });
  });

  it('read stored settings and downloads the same way, falling back where a value is bad', () => {
    const readerSettings = { fontSize: 'huge', columns: 'two-column', decodeEnabled: 'yes' };
    expect(expectSameOutcome((s) => s.settings.SETTINGS.readerSettings.schema, readerSettings).data).toEqual(
      expect.objectContaining({ fontSize: 'default', columns: 'two-column', decodeEnabled: false, readingRuler: 'off' }),
    );
    expect(expectSameOutcome((s) => s.settings.SETTINGS.audioSettings.schema, { playbackSpeed: { 3: 1.25, 4: 7 } }).data).toEqual(
      expect.objectContaining({ audioControlState: 'paused', playbackSpeed: {} }),
    );
    expect(expectSameOutcome((s) => s.settings.SETTINGS.recentLanguages.schema, ['es', 'es', 'ar', 'fr', 'de', 'it', 'ja']).data).toEqual([
      'es',
      'ar',
      'fr',
      'de',
      'it',
    ]);
    const lastPassages = { owls: { language: 'en', level: 'GOLD', position: 3, publicationSlug: 'owls' }, legacy: { editionSlug: 'es:ORIGINAL', position: '2' } };
    expect(expectSameOutcome((s) => s.settings.SETTINGS.lastPassages.schema, lastPassages).data).toEqual(
      classic.settings.SETTINGS.lastPassages.schema.parse(lastPassages),
    );
    const download = {
      slug: 'owls',
      version: 'v1',
      title: 'Owls',
      author: 'A',
      editionId: 2,
      language: 'en',
      level: 'GOLD',
      passageCount: 3,
      bytes: 1000,
      audioFiles: 0,
      urls: ['/api/v1/passages?editionId=2&position=1'],
      gated: false,
      downloadedAt: '2026-11-29T10:00:00.000Z',
    };
    expect(expectSameOutcome((s) => s.offline.DownloadsSchema, [download, { ...download, bytes: -1 }, 'junk'])).toEqual({ data: [download] });
  });

  it('check request parameters with the same words, where the schemas write their own messages', () => {
    const query = (s: Shared) => s.schemas.PublicationListQuerySchema;
    expect(expectSameOutcome(query, { languages: 'ES,ar,es', levels: 'gold', page: '2' })).toEqual({
      data: { languages: ['es', 'ar'], levels: ['GOLD'], page: 2 },
    });
    const bad = { languages: 'es,xx', page: '0', pageSize: 'many', sort: 'newest' };
    expectSameOutcome(query, bad);
    expect(messages(mini.schemas.PublicationListQuerySchema, bad)).toEqual(messages(classic.schemas.PublicationListQuerySchema, bad));
    expect(messages(mini.schemas.PublicationListQuerySchema, bad)).toContain('pageSize must be a whole number');
    const body = { version: 3, languageCode: 'es', level: 'gold' };
    expect(expectSameOutcome((s) => s.schemas.OnDemandEditionBodySchema, body)).toEqual({ data: { version: 'v3', languageCode: 'es', level: 'GOLD' } });
    expect(expectSameOutcome((s) => s.schemas.UploadFieldsSchema, { title: '  Owls  ' })).toEqual({ data: { title: 'Owls', language: 'en' } });
    expect(expectSameOutcome((s) => s.roster.RosterImportQuerySchema, {})).toEqual({ data: { dryRun: false } });
    const name = (s: Shared) => s.textRules.textSchema('name', 'name');
    expect(messages(name(mini), 'x'.repeat(101))).toEqual(messages(name(classic), 'x'.repeat(101)));
    const event = { name: 'Viewed Passage', at: '2026-11-29T10:00:00Z', seconds: 4 };
    const batch = { clientId: '0b9f3c56-3f57-4c2b-9d3c-2a1f5c0e7d11', events: [event] };
    expect(expectSameOutcome((s) => s.analytics.AnalyticsBatchSchema, batch).issues).toEqual([{ code: 'custom', path: ['events', 0, 'seconds'] }]);
    expect(messages(mini.analytics.AnalyticsBatchSchema, batch)).toEqual(messages(classic.analytics.AnalyticsBatchSchema, batch));
    const signIn = { email: ' not-an-address ' };
    expect(messages(mini.sso.SsoSignInBodySchema, signIn)).toEqual(messages(classic.sso.SsoSignInBodySchema, signIn));
  });
});
