import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { readingSessionMachine, connectReadingSession, RECENT_LANGUAGES_CAP } from '../../src/machines/readingSession';
import type { ReadingSessionEvent } from '../../src/machines/readingSession';
import type { Publication } from '../../src/domain/schemas';
import { fixturePublication } from '../fixtures/publication';
import { MODELS } from './models';
import { planTransitionWalk } from './harness';

const publication = fixturePublication();
const events = MODELS.readingSession.events;

const plan = planTransitionWalk(readingSessionMachine, {
  events,
  serializeState: MODELS.readingSession.serializeState,
  maxStates: MODELS.readingSession.maxStates,
});

const NAMED = ['loadPassages', 'savePosition', 'saveRecentLanguages', 'syncAddress', 'leaveToCatalog', 'trackViewedPassage', 'showUpgrade'] as const;

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
          expect(s.context.facts).toEqual(expected.context.facts);
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
  const view = (actor: ReturnType<typeof open>) => connectReadingSession(actor.getSnapshot(), (e) => actor.send(e));

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

  describe('a locked choice offers its upgrade instead of moving the column (SPEC §5, §6)', () => {
    /** The fixture title with its upgrades recorded; its GOLD level needs LEVELS, Russian and Portuguese need LANGUAGES. */
    const told = (access: { known: boolean; features: string[]; titleIds: number[] | null }) => ({ type: 'reader.facts', access: { ...access, classCode: null }, wide: false, columns: 'one-column', editionSelected: null }) as const;
    function gated(access: { known: boolean; features: string[]; titleIds: number[] | null }, title: Publication = publication) {
      const upgrades: unknown[] = [];
      const machine = readingSessionMachine.provide({ actions: { showUpgrade: (_, params) => void upgrades.push(params.feature) } });
      const actor = createActor(machine, { input: {} }).start();
      actor.send(told(access));
      actor.send({ type: 'session.open', request: { slug: title.slug } });
      actor.send({ type: 'publication.loaded', publication: title });
      return { actor, upgrades, v: () => view(actor) };
    }
    const withRussian: Publication = { ...publication, editions: [...publication.editions, { ...publication.editions[2]!, id: 4, language: { ...publication.editions[2]!.language, code: 'ru' } }] };

    it("a locked level offers 'Levels' and a greyed language 'Languages'; the column stays", () => {
      const { upgrades, v } = gated({ known: true, features: [], titleIds: null }, withRussian);
      v().changeLevel('primary', 'GOLD');
      v().changeLanguage('primary', 'ru');
      expect(upgrades).toEqual(['Levels', 'Languages']);
      expect(v().primary).toEqual({ language: 'en', level: 'ORIGINAL' });
      v().changeLanguage('primary', 'es');
      expect(v().primary).toEqual({ language: 'es', level: 'ORIGINAL' });
      expect(upgrades).toHaveLength(2);
    });

    it("every choice on a premium title offers 'Novels' to a reader without LEVELS", () => {
      const { upgrades, v } = gated({ known: true, features: [], titleIds: null }, { ...publication, badges: ['premium'] });
      v().changeLevel('primary', 'ORIGINAL');
      v().changeLanguage('primary', 'es');
      expect(upgrades).toEqual(['Novels', 'Novels']);
    });

    it('nothing is offered until who reads is known, and the features that came later open the choice', () => {
      const { actor, upgrades, v } = gated({ known: false, features: [], titleIds: null });
      v().changeLevel('primary', 'GOLD');
      expect(v().primary).toEqual({ language: 'en', level: 'GOLD' });
      actor.send(told({ known: true, features: [], titleIds: null }));
      v().changeLevel('primary', 'ORIGINAL');
      v().changeLevel('primary', 'GOLD');
      expect(upgrades).toEqual(['Levels']);
      actor.send(told({ known: true, features: ['LEVELS'], titleIds: null }));
      v().changeLevel('primary', 'GOLD');
      expect(v().primary).toEqual({ language: 'en', level: 'GOLD' });
    });

    it("a class code's features reach only the titles its teacher shared", () => {
      const shared = gated({ known: true, features: ['LEVELS'], titleIds: [publication.id] });
      shared.v().changeLevel('primary', 'GOLD');
      expect(shared.upgrades).toEqual([]);
      const other = gated({ known: true, features: ['LEVELS'], titleIds: [99] });
      other.v().changeLevel('primary', 'GOLD');
      expect(other.upgrades).toEqual(['Levels']);
    });
  });
});
