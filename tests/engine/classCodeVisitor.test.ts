/**
 * A stored class code in the engine (SPEC §4 Class code, §7 GET /visitors/me): once the engine hears that nobody is
 * signed in, it checks the code again, once, and keeps, clears or marks it; and the code's features reach only the
 * titles it opens (src/domain/access.ts classCodeFeatures), as the server applies them. Test doubles at the ports.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import { ApiError } from '../../src/api/errors';
import { failureFromApiError } from '../../src/api/engineApi';

/** An error answer as the engine's api port gives it (src/api/engineApi.ts maps the client's ApiError). */
const apiFailure = (status: number, errors: ConstructorParameters<typeof ApiError>[1]) => failureFromApiError(new ApiError(status, errors));
import { createReaderEngine } from '../../src/engine/createReaderEngine';
import { NO_LOCKS } from '../../src/domain/locks';
import type { ApiPort } from '../../src/engine/ports';
import { createMemoryStorage, createSettingsStore } from '../../src/engine/settings';
import { connectClassCode } from '../../src/machines/classCode';
import type { Publication } from '../../src/domain/schemas';
import { fixturePassage, fixturePublication } from '../fixtures/publication';

const CODE = 'ABCD2345';
const TEACHER_FEATURES = ['AUDIO', 'DECODE', 'LANGUAGES', 'LEVELS'];

type Visitor = { groupCodeValid: boolean; features: string[]; titleIds: number[] };

function makeEngine(answer: () => Promise<Visitor>, publication: Publication = fixturePublication()) {
  const storage = createMemoryStorage();
  const settings = createSettingsStore(storage);
  settings.set('groupCode', CODE);
  settings.set('features', TEACHER_FEATURES);
  const visitorCalls: string[] = [];
  const api: ApiPort = {
    getPublication: async () => publication,
    getPassage: async (editionId: number, position: number) => fixturePassage(editionId, position),
    getVisitor: async ({ groupCode }) => {
      visitorCalls.push(groupCode);
      return answer();
    },
  };
  const clock = createManualClock();
  const engine = createReaderEngine({
    api,
    storage,
    clock,
    audio: createSilentAudio(clock),
    analytics: createMemoryAnalytics(),
    logger: { error: () => {}, warn: () => {} },
  });
  engine.start();
  return { engine, visitorCalls, settings };
}

async function settle() {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

const classCode = (engine: ReturnType<typeof makeEngine>['engine']) => connectClassCode(engine.getSnapshot().classCode, () => {});
const toasts = (engine: ReturnType<typeof makeEngine>['engine']) =>
  engine.getSnapshot().toasts.context.toasts.map((t: { message: string }) => t.message);

async function openFixture(engine: ReturnType<typeof makeEngine>['engine']) {
  engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 1 } });
  await settle();
}

describe('a stored class code', () => {
  it('is checked once when the engine hears nobody is signed in, and kept with fresh features and titles', async () => {
    const { engine, visitorCalls, settings } = makeEngine(async () => ({ groupCodeValid: true, features: ['LEVELS'], titleIds: [1] }));
    expect(visitorCalls).toEqual([]);
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    expect(visitorCalls).toEqual([CODE]);
    expect(classCode(engine).code).toBe(CODE);
    expect(settings.get('features')).toEqual(['LEVELS']);
    expect(settings.get('classTitleIds')).toEqual([1]);
    expect(engine.getSnapshot().features).toEqual(['LEVELS']);
    engine.stop();
  });

  it('is not checked for a signed-in user', async () => {
    const { engine, visitorCalls } = makeEngine(async () => ({ groupCodeValid: false, features: [], titleIds: [] }));
    engine.getChild('access')!.send({ type: 'user.features', features: ['LEVELS'] });
    await settle();
    expect(visitorCalls).toEqual([]);
    engine.stop();
  });

  it("is cleared with 'Invalid Class Code' when the check says it is no longer valid", async () => {
    const { engine, settings } = makeEngine(async () => ({ groupCodeValid: false, features: [], titleIds: [] }));
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    expect(classCode(engine).code).toBeNull();
    expect(settings.get('groupCode')).toBeNull();
    expect(settings.get('classTitleIds')).toBeNull();
    expect(toasts(engine)).toContain('Invalid Class Code');
    engine.stop();
  });

  it("is kept but marked when the check fails with an API error, whose message is shown", async () => {
    const { engine, visitorCalls } = makeEngine(async () => {
      throw apiFailure(429, [{ code: 'rate_limited', message: 'Too many wrong class codes. Try again in 5 minutes.' }]);
    });
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    expect(classCode(engine).code).toBe(CODE);
    expect(toasts(engine)).toContain('Too many wrong class codes. Try again in 5 minutes.');
    // A failed check may be tried again later.
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    expect(visitorCalls).toHaveLength(2);
    engine.stop();
  });
});

describe("a class code's features reach only the titles it opens", () => {
  it('on a title the teacher shared, GOLD is open; on another title the student reads as a visitor', async () => {
    const shared = makeEngine(async () => ({ groupCodeValid: true, features: TEACHER_FEATURES, titleIds: [1] }));
    shared.engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    await openFixture(shared.engine);
    expect(shared.engine.getSnapshot().primary.locks).toEqual(NO_LOCKS);
    shared.engine.stop();

    const other = makeEngine(async () => ({ groupCodeValid: true, features: TEACHER_FEATURES, titleIds: [99] }));
    other.engine.getChild('access')!.send({ type: 'user.features', features: null });
    await settle();
    await openFixture(other.engine);
    expect(other.engine.getSnapshot().primary.locks.lockedLevels).toEqual(['GOLD']);
    expect(other.engine.getSnapshot().features).toEqual([]);
    other.engine.stop();
  });
});
