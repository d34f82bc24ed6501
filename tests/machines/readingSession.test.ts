import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { readingSessionMachine, connectReadingSession, RECENT_LANGUAGES_CAP } from '../../src/machines/readingSession';
import type { ReadingSessionEvent } from '../../src/machines/readingSession';
import { fixturePublication } from '../fixtures/publication';
import { MODELS } from './models';
import { planTransitionWalk } from './harness';

const publication = fixturePublication();
const events = MODELS.readingSession.events;

const plan = planTransitionWalk(readingSessionMachine, {
  events,
  serializeState: (s) => JSON.stringify([s.value, s.context.primary, s.context.secondary, s.context.position, !!s.context.publication]),
  maxStates: 2000,
});

const NAMED = ['loadPassages', 'savePosition', 'saveRecentLanguages', 'syncAddress', 'leaveToCatalog', 'trackViewedPassage'] as const;

function sut() {
  const calls: string[] = [];
  const actions = Object.fromEntries(NAMED.map((n) => [n, () => void calls.push(n)]));
  const actor = createActor(readingSessionMachine.provide({ actions }), { input: {} }).start();
  return { actor, calls };
}

describe('reading session: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, calls } = sut();
      await c.run(
        (expected, _step, actions) => {
          const s = actor.getSnapshot();
          expect(s.value).toEqual(expected.value);
          expect(s.context.position).toBe(expected.context.position);
          expect(s.context.primary).toEqual(expected.context.primary);
          expect(s.context.secondary).toEqual(expected.context.secondary);
          expect(calls).toEqual(actions.filter((a) => (NAMED as readonly string[]).includes(a)));
          calls.length = 0;
        },
        { send: (e) => actor.send(e), stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('reading session rules', () => {
  function open(request: Parameters<typeof connectReadingSession>[0]['context']['request']) {
    const actor = createActor(readingSessionMachine, { input: {} }).start();
    actor.send({ type: 'session.open', request: request! });
    actor.send({ type: 'publication.loaded', publication });
    return actor;
  }
  // The session alone: its choices of language and level go to it too (in the system the root checks them first).
  const view = (actor: ReturnType<typeof open>) => connectReadingSession(actor.getSnapshot(), (e) => actor.send(e), (e) => actor.send(e));

  it('uses the default reader when the request names no edition, and position 1 by default', () => {
    const v = view(open({ slug: 'fixture' }));
    expect(v.primary).toEqual({ language: 'en', level: 'ORIGINAL' });
    expect(v.position).toBe(1);
    expect(v.canGoPrevious).toBe(false);
  });

  it('moves a position past the end to the last passage', () => {
    expect(view(open({ slug: 'fixture', primary: { language: 'en', level: 'GOLD' }, position: 99 })).position).toBe(3);
  });

  it('pages within 1..the largest passage count of the editions in view', () => {
    const actor = open({ slug: 'fixture', primary: { language: 'en', level: 'GOLD' }, secondary: { language: 'es', level: 'ORIGINAL' }, position: 3 });
    expect(view(actor).maxPosition).toBe(4);
    view(actor).next();
    expect(view(actor).position).toBe(4);
    expect(view(actor).canGoNext).toBe(false);
    view(actor).next();
    expect(view(actor).position).toBe(4);
  });

  it('keeps the level on a language change when that edition exists, else takes the closest', () => {
    const actor = open({ slug: 'fixture', primary: { language: 'en', level: 'GOLD' } });
    view(actor).changeLanguage('primary', 'es');
    expect(view(actor).primary).toEqual({ language: 'es', level: 'ORIGINAL' });
    view(actor).changeLanguage('primary', 'en');
    expect(view(actor).primary).toEqual({ language: 'en', level: 'ORIGINAL' });
  });

  it('keeps the language on a level change when that edition exists, else goes to English at that level', () => {
    const actor = open({ slug: 'fixture', primary: { language: 'es', level: 'ORIGINAL' } });
    view(actor).changeLevel('primary', 'GOLD');
    expect(view(actor).primary).toEqual({ language: 'en', level: 'GOLD' });
  });

  it('remembers recently used languages, most recent first, without duplicates, capped', () => {
    const actor = createActor(readingSessionMachine, { input: { recentLanguages: ['ru', 'pt', 'zh', 'vi', 'bn', 'ar'] } }).start();
    expect(actor.getSnapshot().context.recentLanguages).toHaveLength(RECENT_LANGUAGES_CAP);
    actor.send({ type: 'session.open', request: { slug: 'fixture' } });
    actor.send({ type: 'publication.loaded', publication });
    view(actor).changeLanguage('primary', 'es');
    view(actor).changeLanguage('primary', 'en');
    view(actor).changeLanguage('primary', 'es');
    expect(actor.getSnapshot().context.recentLanguages.slice(0, 3)).toEqual(['es', 'en', 'ru']);
  });

  it('finds the current shortcut: the last one at or before the position', () => {
    const actor = open({ slug: 'fixture', position: 2 });
    expect(view(actor).currentShortcut?.name).toBe('One');
    view(actor).next();
    expect(view(actor).currentShortcut?.name).toBe('Two');
  });

  it('flags a requested edition that does not exist', () => {
    const v = view(open({ slug: 'fixture', primary: { language: 'ru', level: 'GOLD' } }));
    expect(v.primaryMissing).toBe(true);
  });
});
