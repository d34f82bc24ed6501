/**
 * The reader system's composed paths: what a reader does across its machines, step by step, each step with what
 * they then see. tests/machines/readerSystem.composed.test.ts runs every path on the engine with its real
 * children (fakes only at the ports, tests/support/composedSystem.ts) and checks every step; `npm run qa:paths`
 * writes them for QA to follow by hand (docs/qa/readerSystem.composed.md, scripts/qa/composedPaths.ts).
 *
 * `say` and `expectSay` are the QA script, `do` and `expect` the same step for the engine: keep them saying the
 * same thing. Time passes only where a step says so (the clock is simulated).
 */
import type { ExpectStatic } from 'vitest';
import type { EditionChoice, SessionRequest } from '../../src/machines/readingSession';
import { CLASS_CODE, EDITIONS, LICENSED_FEATURES, narrationUrl, passageIdOf, passageText, speechMarksOf, wordOffset, type ComposedSystem } from '../support/composedSystem';
import { PortFailure } from '../../src/engine/ports';

export interface ComposedStep {
  /** What the tester does, as a QA script says it. */
  say: string;
  /** What the tester then sees, as a QA script says it. */
  expectSay: string;
  /** The same action, on the engine's public surface. */
  do: (sys: ComposedSystem) => void | Promise<void>;
  /** The same expectation, on what the engine shows (through the machines' connect APIs, the ports' fakes). */
  expect: (sys: ComposedSystem, expect: ExpectStatic) => void;
}

export interface ComposedPath {
  name: string;
  /** Who reads and where, before the first step. */
  given: string;
  steps: ComposedStep[];
}

const choice = (e: { language: string; level: EditionChoice['level'] }): EditionChoice => ({ language: e.language, level: e.level });

/** Open the title, as a reader address does. */
function openTitle(sys: ComposedSystem, primary: EditionChoice, extra: Partial<SessionRequest> = {}) {
  return sys.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary, position: 1, ...extra } });
}

/** The reader screen tells the engine's access child who reads: here, nobody signed in. */
const asVisitor = (sys: ComposedSystem) => {
  sys.engine.getChild('access')!.send({ type: 'user.features', features: null });
  return sys.settle();
};

/** A teacher of a school with a School License signs in: the server answers for them, the engine hears their plan. */
async function signInLicensed(sys: ComposedSystem) {
  sys.signIn(LICENSED_FEATURES);
  await sys.send({ type: 'auth.signedIn' });
  await sys.send({ type: 'user.loaded', hasRole: true, features: LICENSED_FEATURES });
}

const listen = (sys: ComposedSystem, slot: 'primary' | 'secondary' = 'primary') => {
  sys.engine.getChild(`column.${slot}`)!.send({ type: 'audio.listen', on: true });
  return sys.settle();
};

/** The player plays this passage's narration, at this second of it. */
function expectPlaying(sys: ComposedSystem, expect: ExpectStatic, editionId: number, position: number, second: number) {
  expect(sys.player().label).toBe('Now Playing');
  expect(sys.snapshot().readerPlayer).toMatchObject({ passageId: passageIdOf(editionId, position), status: 'ready', currentTime: second });
  expect(sys.audio.loads().at(-1)).toBe(narrationUrl(passageIdOf(editionId, position)));
  expect(sys.engine.getAudioTime()).toBeCloseTo(second, 5);
}

function expectPassage(sys: ComposedSystem, expect: ExpectStatic, slot: 'primary' | 'secondary', editionId: number, position: number) {
  const column = sys.column(slot);
  expect(column.isLoaded).toBe(true);
  expect(column.text).toBe(passageText(editionId, position));
  expect(sys.session().position).toBe(position);
}

const { english, gold, spanish, classEdition, chinese } = EDITIONS;

export const COMPOSED_PATHS: ComposedPath[] = [
  {
    name: 'Listen, turn the page, pause and leave',
    given: 'A visitor (nobody signed in) on a narrow screen, with nothing saved from an earlier visit.',
    steps: [
      {
        say: 'Open Night Owls in English (Original) at passage 1.',
        expectSay: "Passage 1 shows. The player is closed ('Closed'). 'Viewed Passage' is tracked for passage 1.",
        do: async (sys) => {
          await asVisitor(sys);
          await openTitle(sys, choice(english));
        },
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 1);
          expect(sys.player().label).toBe('Closed');
          expect(sys.trackedWith('Viewed Passage')).toEqual([expect.objectContaining({ slug: 'fixture', editionId: english.id, position: 1 })]);
        },
      },
      {
        say: "Turn the column's Listen on.",
        expectSay:
          "The player opens and plays passage 1's narration from 0:00 ('Now Playing'), with highlight on: the column's words light up as they are read. 'Opened Audio Player' is tracked; the saved player state is 'playing'.",
        do: (sys) => listen(sys),
        expect: (sys, expect) => {
          expectPlaying(sys, expect, english.id, 1, 0);
          expect(sys.reading().isHighlightOn).toBe(true);
          expect(sys.snapshot().primary.display.highlight).toBe(true);
          expect(sys.snapshot().primary.listening).toBe(true);
          expect(sys.tracked()).toContain('Opened Audio Player');
          expect(sys.stored('audioSettings')).toMatchObject({ audioControlState: 'playing', editionSelected: 'primary', highlight: true });
        },
      },
      {
        say: 'Listen for 3 seconds.',
        expectSay: 'The clock shows 0:03 and the player still plays.',
        do: (sys) => sys.advance(3000),
        expect: (sys, expect) => expectPlaying(sys, expect, english.id, 1, 3),
      },
      {
        say: 'Press Pause.',
        expectSay: "The player shows 'Paused' at 0:03. 'Paused Audio' is tracked with 3 seconds heard; the saved time is 3 s.",
        do: (sys) => sys.player().pause(),
        expect: (sys, expect) => {
          expect(sys.player().label).toBe('Paused');
          expect(sys.snapshot().readerPlayer.currentTime).toBe(3);
          expect(sys.trackedWith('Paused Audio')).toEqual([expect.objectContaining({ position: 1, editionId: english.id, seconds: 3 })]);
          expect(sys.stored('audioSettings')).toMatchObject({ audioControlState: 'paused', currentTime: 3 });
        },
      },
      {
        say: 'Press Play, and listen for 1 second.',
        expectSay: "The player plays on from 0:03 ('Now Playing') and shows 0:04. 'Resumed Audio' is tracked.",
        do: async (sys) => {
          sys.player().play();
          await sys.advance(1000);
        },
        expect: (sys, expect) => {
          expectPlaying(sys, expect, english.id, 1, 4);
          expect(sys.tracked()).toContain('Resumed Audio');
        },
      },
      {
        say: 'Turn to the next passage.',
        expectSay:
          "Passage 2 shows and the player plays passage 2's narration from 0:00 ('Now Playing'), still with highlight. The saved time is back to 0. 'Viewed Passage' is tracked for passage 2.",
        do: (sys) => sys.session().next(),
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 2);
          expectPlaying(sys, expect, english.id, 2, 0);
          expect(sys.snapshot().primary.display.highlight).toBe(true);
          expect(sys.stored('audioSettings')).toMatchObject({ audioControlState: 'playing', currentTime: 0 });
          expect(sys.trackedWith('Viewed Passage').at(-1)).toMatchObject({ position: 2 });
        },
      },
      {
        say: 'Listen for 2 seconds, then press Pause.',
        expectSay: "The player shows 'Paused' at 0:02. 'Paused Audio' is tracked for passage 2, with the 3 seconds heard since Play.",
        do: async (sys) => {
          await sys.advance(2000);
          sys.player().pause();
        },
        expect: (sys, expect) => {
          expect(sys.player().label).toBe('Paused');
          expect(sys.snapshot().readerPlayer.currentTime).toBe(2);
          expect(sys.trackedWith('Paused Audio').at(-1)).toMatchObject({ position: 2, seconds: 3 });
        },
      },
      {
        say: 'Leave the reader (back to the library).',
        expectSay: "Nothing plays: the reader's audio is unloaded. The player stays open, 'Paused', and its saved state is 'paused'. No further audio event is tracked.",
        do: (sys) => sys.send({ type: 'reader.close' }),
        expect: (sys, expect) => {
          expect(sys.player().label).toBe('Paused');
          expect(sys.audio.loads().at(-1)).toBeNull();
          expect(sys.engine.getAudioTime()).toBe(0);
          expect(sys.stored('audioSettings')).toMatchObject({ audioControlState: 'paused' });
          expect(sys.tracked().filter((e) => /Audio/.test(e))).toEqual(['Opened Audio Player', 'Paused Audio', 'Resumed Audio', 'Paused Audio']);
        },
      },
    ],
  },
  {
    name: 'A Gold passage for a visitor, then a licensed teacher signs in',
    given: 'A visitor (nobody signed in) on a narrow screen.',
    steps: [
      {
        say: 'Open Night Owls in English Gold at passage 2.',
        expectSay: "The license panel ('This content requires a School License') shows instead of the text. Gold is locked in the level menu. The player is closed.",
        do: async (sys) => {
          await asVisitor(sys);
          await openTitle(sys, choice(gold), { position: 2 });
        },
        expect: (sys, expect) => {
          expect(sys.column('primary').needsLicense).toBe(true);
          expect(sys.column('primary').text).toBe('');
          expect(sys.snapshot().primary.locks.lockedLevels).toContain('GOLD');
          expect(sys.player().label).toBe('Closed');
        },
      },
      {
        say: 'Sign in as a teacher whose school holds a School License.',
        expectSay: "Without a reload, passage 2's text shows in place of the panel; no level is locked any more. 'Signed In' is tracked.",
        do: signInLicensed,
        expect: (sys, expect) => {
          expect(sys.column('primary').needsLicense).toBe(false);
          expectPassage(sys, expect, 'primary', gold.id, 2);
          expect(sys.snapshot().primary.locks.lockedLevels).toEqual([]);
          expect(sys.tracked()).toContain('Signed In');
        },
      },
      {
        say: "Turn the column's Listen on.",
        expectSay: "The player plays passage 2's narration from 0:00 ('Now Playing'), with highlight on.",
        do: (sys) => listen(sys),
        expect: (sys, expect) => {
          expectPlaying(sys, expect, gold.id, 2, 0);
          expect(sys.snapshot().primary.display.highlight).toBe(true);
        },
      },
      {
        say: 'Listen for 2 seconds.',
        expectSay: 'The player plays on: the clock shows 0:02.',
        do: (sys) => sys.advance(2000),
        expect: (sys, expect) => {
          expectPlaying(sys, expect, gold.id, 2, 2);
          expect(sys.errors).toEqual([]);
        },
      },
    ],
  },
  {
    name: "A class's passage opened with a class code",
    given: 'A student (nobody signed in, no class code saved) on a narrow screen.',
    steps: [
      {
        say: "Open Night Owls in English Silver, the class's edition, at passage 1.",
        expectSay: "The class-code panel ('Enter Class Code or Sign In') shows instead of the text. No class code shows in the menu.",
        do: async (sys) => {
          await asVisitor(sys);
          await openTitle(sys, choice(classEdition));
        },
        expect: (sys, expect) => {
          expect(sys.column('primary').needsGroupCode).toBe(true);
          expect(sys.column('primary').text).toBe('');
          expect(sys.classCode().menuLabel).toBeNull();
        },
      },
      {
        say: `Type the class code ${CLASS_CODE} in the panel and submit it.`,
        expectSay: `The server accepts the code: 'Class Code Accepted' shows, the menu reads 'Class Code: ${CLASS_CODE}', the code is saved, and passage 1's text shows without a reload.`,
        do: (sys) => sys.engine.getChild('classCode')!.send({ type: 'classCode.submit', code: CLASS_CODE, source: 'reader' }),
        expect: (sys, expect) => {
          expect(sys.server.calls).toContain(`visitor ${CLASS_CODE}`);
          expect(sys.toasts()).toEqual(['Class Code Accepted']);
          expect(sys.classCode().menuLabel).toBe(`Class Code: ${CLASS_CODE}`);
          expect(sys.stored('groupCode')).toBe(CLASS_CODE);
          expectPassage(sys, expect, 'primary', classEdition.id, 1);
        },
      },
      {
        say: "Turn the column's Listen on.",
        expectSay: "The player plays passage 1's narration from 0:00 ('Now Playing').",
        do: (sys) => listen(sys),
        expect: (sys, expect) => expectPlaying(sys, expect, classEdition.id, 1, 0),
      },
      {
        say: 'Listen for 2 seconds.',
        expectSay: "The player plays on (0:02); the 'Class Code Accepted' toast has gone.",
        do: (sys) => sys.advance(2000),
        expect: (sys, expect) => {
          expectPlaying(sys, expect, classEdition.id, 1, 2);
          expect(sys.toasts()).toEqual([]);
        },
      },
    ],
  },
  {
    name: 'Two columns: the second column plays, highlight follows it, both turn',
    given: 'A teacher whose school holds a School License, on a wide screen.',
    steps: [
      {
        say: 'Sign in as a teacher whose school holds a School License, on a screen wide enough for two columns.',
        expectSay: 'Two columns are allowed; every feature of the license is in force.',
        do: async (sys) => {
          await signInLicensed(sys);
          await sys.send({ type: 'viewport.changed', wide: true });
        },
        expect: (sys, expect) => {
          expect(sys.snapshot().columns.allowed).toBe(true);
          expect(sys.snapshot().features).toEqual(expect.arrayContaining(['AUDIO', 'LANGUAGES', 'LEVELS']));
        },
      },
      {
        say: 'Open Night Owls with English (Original) on the left and Spanish (Original) on the right, at passage 1.',
        expectSay: "Both columns show passage 1: English on the left, Spanish on the right. The player is closed.",
        do: (sys) => openTitle(sys, choice(english), { secondary: choice(spanish) }),
        expect: (sys, expect) => {
          expect(sys.snapshot().columns.showSecondary).toBe(true);
          expectPassage(sys, expect, 'primary', english.id, 1);
          expectPassage(sys, expect, 'secondary', spanish.id, 1);
          expect(sys.player().label).toBe('Closed');
        },
      },
      {
        say: "Turn Listen on for the right (Spanish) column.",
        expectSay:
          "The player plays the Spanish passage 1 from 0:00 ('Now Playing'). The right column's words light up as they are read, and the left column lights the English sentence that matches.",
        do: (sys) => listen(sys, 'secondary'),
        expect: (sys, expect) => {
          expectPlaying(sys, expect, spanish.id, 1, 0);
          expect(sys.snapshot().readerPlayer.slot).toBe('secondary');
          expect(sys.snapshot().secondary.listening).toBe(true);
          expect(sys.snapshot().secondary.display).toEqual({ decoded: false, highlight: true, follows: null });
          expect(sys.snapshot().primary.display).toEqual({ decoded: false, highlight: false, follows: { slot: 'secondary', language: 'es' } });
          expect(sys.stored('audioSettings')).toMatchObject({ editionSelected: 'secondary', highlight: true });
        },
      },
      {
        say: 'Listen for 2 seconds, then turn to the next passage.',
        expectSay:
          "Both columns show passage 2. The player plays the Spanish passage 2 from 0:00; the right column is lit as it is read and the left one still follows it.",
        do: async (sys) => {
          await sys.advance(2000);
          sys.session().next();
        },
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 2);
          expectPassage(sys, expect, 'secondary', spanish.id, 2);
          expectPlaying(sys, expect, spanish.id, 2, 0);
          expect(sys.snapshot().secondary.display.highlight).toBe(true);
          expect(sys.snapshot().primary.display.follows).toEqual({ slot: 'secondary', language: 'es' });
        },
      },
    ],
  },
  {
    name: 'Word mode: a tapped word is said while the passage plays',
    given: 'A visitor (nobody signed in) on a narrow screen.',
    steps: [
      {
        say: 'Open Night Owls in English (Original) at passage 1 and turn word mode on (tap a word to hear it).',
        expectSay: 'Passage 1 shows; word mode is on and saved.',
        do: async (sys) => {
          await asVisitor(sys);
          await openTitle(sys, choice(english));
          await sys.send({ type: 'settings.reader', patch: { wordMode: true } });
        },
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 1);
          expect(sys.snapshot().readerSettings.wordMode).toBe(true);
          expect(sys.stored('readerSettings').wordMode).toBe(true);
        },
      },
      {
        say: "Turn the column's Listen on and listen for 2 seconds.",
        expectSay: "The player plays passage 1 ('Now Playing') and shows 0:02.",
        do: async (sys) => {
          await listen(sys);
          await sys.advance(2000);
        },
        expect: (sys, expect) => expectPlaying(sys, expect, english.id, 1, 2),
      },
      {
        say: "Tap the word 'owl'.",
        expectSay:
          "The word 'owl' is marked and said on its own, from its place in the narration (0:05 to 0:06). Meanwhile the player shows 'Paused' and its clock stays at 0:02.",
        do: (sys) => sys.sendTo('column.primary', { type: 'word.say', offset: wordOffset(english.id, 1, 'owl') }),
        expect: (sys, expect) => {
          const owl = wordOffset(english.id, 1, 'owl');
          expect(sys.snapshot().wordAudio).toEqual({ status: 'speaking', slot: 'primary', word: { start: owl, end: owl + 3 } });
          expect(sys.player().label).toBe('Paused');
          expect(sys.wordAudio.calls).toEqual(['pause', `load(${narrationUrl(passageIdOf(english.id, 1))})`, 'seek(5)', 'play']);
          expect(sys.engine.getAudioTime()).toBeCloseTo(2, 5);
        },
      },
      {
        say: 'Wait a second, until the word has been said.',
        expectSay: "The word is no longer marked, and the player plays on from where it was ('Now Playing').",
        do: (sys) => sys.advance(1000),
        expect: (sys, expect) => {
          expect(sys.snapshot().wordAudio.status).toBe('idle');
          expect(sys.wordAudio.calls.at(-1)).toBe('pause');
          expect(sys.player().label).toBe('Now Playing');
        },
      },
      {
        say: 'Listen for 1 more second.',
        expectSay: 'The clock shows 0:03: the passage went on from where the word stopped it.',
        do: (sys) => sys.advance(1000),
        expect: (sys, expect) => expectPlaying(sys, expect, english.id, 1, 3),
      },
    ],
  },
  {
    name: 'A missing edition is made; a slow passage and a failing one',
    given: 'A visitor (nobody signed in) on a narrow screen; the server takes 2 seconds to make an edition.',
    steps: [
      {
        say: 'Open Night Owls in Chinese (Original), an edition the title does not have yet, at passage 1.',
        expectSay: 'The column shows loading while the edition is made.',
        do: async (sys) => {
          sys.server.createEditionMs = 2000;
          await asVisitor(sys);
          await openTitle(sys, choice(chinese));
        },
        expect: (sys, expect) => {
          expect(sys.column('primary').isCreating).toBe(true);
          expect(sys.server.calls).toContain('create zh:ORIGINAL');
        },
      },
      {
        say: 'Wait 2 seconds.',
        expectSay: 'The new Chinese edition is in the title, and its passage 1 shows.',
        do: (sys) => sys.advance(2000),
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', chinese.id, 1);
          expect(sys.session().primaryEdition?.id).toBe(chinese.id);
        },
      },
      {
        say: 'Switch the column to English; the server is slow and answers only after 12 seconds.',
        expectSay: 'The column shows the loading skeleton.',
        do: (sys) => {
          sys.server.passageScripts.set(`${english.id}:1`, { answerAfterMs: 12_000 });
          sys.session().changeLanguage('primary', 'en');
        },
        expect: (sys, expect) => {
          expect(sys.session().primary).toEqual(choice(english));
          expect(sys.column('primary')).toMatchObject({ showSkeleton: true, showSpinner: false, showRefresh: false });
        },
      },
      {
        say: 'Wait 1.5 seconds.',
        expectSay: 'A spinner shows.',
        do: (sys) => sys.advance(1500),
        expect: (sys, expect) => expect(sys.column('primary')).toMatchObject({ showSkeleton: false, showSpinner: true, showRefresh: false }),
      },
      {
        say: 'Wait until 10 seconds have passed since the switch.',
        expectSay: "'Retrieving passage...' shows with a 'Refresh' button.",
        do: (sys) => sys.advance(8500),
        expect: (sys, expect) => expect(sys.column('primary')).toMatchObject({ showRefresh: true, message: 'Retrieving passage...', refreshLabel: 'Refresh' }),
      },
      {
        say: 'Press Refresh.',
        expectSay: "The column starts loading again: the loading skeleton shows, without 'Refresh'.",
        do: (sys) => sys.column('primary').refresh(),
        expect: (sys, expect) => expect(sys.column('primary')).toMatchObject({ showSkeleton: true, showRefresh: false, isLoaded: false }),
      },
      {
        say: "Wait 2 seconds (the server's answer arrives).",
        expectSay: 'The English passage 1 shows.',
        do: (sys) => sys.advance(2000),
        expect: (sys, expect) => expectPassage(sys, expect, 'primary', english.id, 1),
      },
      {
        say: 'Turn to the next passage; the server fails on it (503).',
        expectSay: "The error panel shows 'Unavailable': 'Please choose another passage or Contact Support'.",
        do: (sys) => {
          sys.server.passageScripts.set(`${english.id}:2`, { fail: new PortFailure('unavailable', 503, 'Service unavailable') });
          sys.session().next();
        },
        expect: (sys, expect) => {
          expect(sys.session().position).toBe(2);
          expect(sys.column('primary').error).toEqual({ title: 'Unavailable', message: 'Please choose another passage or Contact Support' });
        },
      },
      {
        say: 'Go back to the previous passage.',
        expectSay: 'The English passage 1 shows again at once.',
        do: (sys) => sys.session().previous(),
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 1);
          expect(sys.column('primary').error).toBeNull();
        },
      },
    ],
  },
  {
    name: 'Highlight with the player closed, then decode',
    given: 'A teacher whose school holds a School License, on a narrow screen.',
    steps: [
      {
        say: 'Sign in as a teacher whose school holds a School License, and open Night Owls in English (Original) at passage 1.',
        expectSay: 'Passage 1 shows. Highlight and decode are both offered and both off; the player is closed.',
        do: async (sys) => {
          await signInLicensed(sys);
          await openTitle(sys, choice(english));
        },
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 1);
          expect(sys.reading()).toMatchObject({ canHighlight: true, canDecode: true, isHighlightOn: false, isDecodeOn: false });
          expect(sys.player().label).toBe('Closed');
        },
      },
      {
        say: 'Turn highlight on, with the player closed.',
        expectSay: "Highlight is on and saved. The passage's speech marks are loaded (one per word), ready for when it plays; nothing is lit yet and the player stays closed.",
        do: (sys) => sys.reading().toggleHighlight(),
        expect: (sys, expect) => {
          expect(sys.reading().isHighlightOn).toBe(true);
          expect(sys.snapshot().primary.passage?.audio?.speechMarks).toEqual(speechMarksOf(english.id, 1));
          expect(sys.server.calls.filter((c) => c.startsWith('narration'))).toEqual([`narration ${passageIdOf(english.id, 1)}`]);
          expect(sys.snapshot().primary.display.highlight).toBe(false);
          expect(sys.player().label).toBe('Closed');
          expect(sys.stored('audioSettings')).toMatchObject({ highlight: true });
        },
      },
      {
        say: 'Turn decode on.',
        expectSay: "Decode replaces highlight: the passage shows decoded, its decoded text loaded from the server. Decode is saved as on.",
        do: (sys) => sys.reading().toggleDecode(),
        expect: (sys, expect) => {
          expect(sys.reading()).toMatchObject({ isDecodeOn: true, isHighlightOn: false });
          expect(sys.server.calls).toContain(`decoded ${passageIdOf(english.id, 1)}`);
          expect(sys.snapshot().primary.passage?.textDecoded).toBe(passageText(english.id, 1).replace('<p>', '<p class="decoded">'));
          expect(sys.snapshot().primary.display.decoded).toBe(true);
          expect(sys.stored('readerSettings').decodeEnabled).toBe(true);
        },
      },
      {
        say: 'Turn to the next passage.',
        expectSay: 'Passage 2 shows, decoded too (its decoded text loaded in turn).',
        do: (sys) => sys.session().next(),
        expect: (sys, expect) => {
          expectPassage(sys, expect, 'primary', english.id, 2);
          expect(sys.server.calls).toContain(`decoded ${passageIdOf(english.id, 2)}`);
          expect(sys.snapshot().primary.passage?.textDecoded).toBe(passageText(english.id, 2).replace('<p>', '<p class="decoded">'));
          expect(sys.snapshot().primary.display.decoded).toBe(true);
        },
      },
    ],
  },
];
