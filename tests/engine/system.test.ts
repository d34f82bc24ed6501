/**
 * Composed flows of the reader system: behaviour that spans its machines, run as the engine runs
 * it, in Node, with test doubles only at the ports. The fake API answers like the server: a passage's gate depends
 * on who asks, which the tests change as a reader signs in or enters a class code.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import { PortFailure } from '../../src/domain/failures';
import type { Publication } from '../../src/domain/schemas';
import { createReaderEngine, type ReaderEngine } from '../../src/engine/createReaderEngine';
import type { ApiPort, NavigationPort } from '../../src/engine/ports';
import { createMemoryStorage } from '../../src/engine/settings';
import { connectClassCode } from '../../src/machines/classCode';
import { connectCopyLink } from '../../src/machines/copyLink';
import { connectHighlightDecode } from '../../src/machines/highlightDecode';
import { connectReaderColumn } from '../../src/machines/readerColumn';
import { connectReadingSession } from '../../src/machines/readingSession';
import { connectRoleModal } from '../../src/machines/roleModal';
import { fixturePassage, fixturePublication } from '../fixtures/publication';

/** The fixture title; GOLD needs a license (as the server's free tier says), Spanish is narrated with highlight. */
function publication(extra: Partial<Publication> = {}): Publication {
  const base = fixturePublication();
  const editions = base.editions.map((e) => (e.language.code === 'es' ? { ...e, audioEnabled: true, highlightModeEnabled: true } : e));
  return { ...base, editions, englishEditions: editions.filter((e) => e.language.code === 'en'), ...extra };
}

interface Server {
  /** Who asks: nobody, a visitor with a class code, or a licensed teacher. */
  reader: 'visitor' | 'classCode' | 'licensed';
  publication: Publication;
  /** Answer of GET /visitors/me: a verdict, or a failure. */
  visitor: { groupCodeValid: boolean; features: string[]; titleIds?: number[] } | PortFailure;
  createEdition: () => Promise<unknown>;
  /** Answer of PATCH /users/me/role. */
  updateRole: () => Promise<unknown>;
  /** Answer of the clipboard's write. */
  writeText: () => Promise<void>;
  /** GET /publications/{slug} fails with this, when set. */
  publicationFailure?: PortFailure;
  /** Answer of GET /passages/{id}/decode. */
  decodedText: (passageId: number) => Promise<string>;
  calls: string[];
}

function makeSystem(overrides: Partial<Server> = {}) {
  const server: Server = {
    reader: 'visitor',
    publication: publication(),
    visitor: { groupCodeValid: true, features: ['LEVELS'], titleIds: [1] },
    createEdition: () => Promise.reject(new PortFailure('not_found', 404, 'Passage not found')),
    updateRole: () => Promise.resolve({}),
    writeText: () => Promise.resolve(),
    decodedText: async (passageId) => `<p><span class="syllable">Decoded ${passageId}</span></p>`,
    calls: [],
    ...overrides,
  };
  const api: ApiPort = {
    getPublication: async () => {
      if (server.publicationFailure) throw server.publicationFailure;
      return server.publication;
    },
    getPassage: async (editionId, position) => {
      server.calls.push(`passage ${editionId}:${position} as ${server.reader}`);
      const gold = server.publication.editions.find((e) => e.id === editionId)?.level === 'GOLD';
      return fixturePassage(editionId, position, gold && server.reader === 'visitor' ? 'licenseRequired' : null);
    },
    getVisitor: async () => {
      if (server.visitor instanceof PortFailure) throw server.visitor;
      return server.visitor;
    },
    createEdition: async () => {
      server.calls.push('createEdition');
      return server.createEdition();
    },
    updateRole: async (role) => {
      server.calls.push(`role ${role}`);
      return server.updateRole();
    },
    getDecodedText: async (passageId, editionId, position) => {
      server.calls.push(`decode ${passageId} of ${editionId}:${position}`);
      return server.decodedText(passageId);
    },
    getPassageAudio: async (passageId) => ({ passageId, status: 'ready', audio: { url: `/audio/${passageId}.mp3`, speechMarks: [{ offset: 0, time: 0 }], duration: 5000 } }),
  };
  const history = ['/fixture/v1/read'];
  const navigation: NavigationPort = {
    push: (p) => void history.push(p),
    replace: (p) => void (history[history.length - 1] = p),
    current: () => history[history.length - 1],
  };
  const clock = createManualClock();
  const storage = createMemoryStorage();
  const errors: string[] = [];
  const logger = { error: (message: string) => void errors.push(message), warn: () => {} };
  const clipboard = {
    writeText: (text: string) => {
      server.calls.push(`copy ${text}`);
      return server.writeText();
    },
  };
  const engine = createReaderEngine({ api, storage, clock, audio: createSilentAudio(clock), analytics: createMemoryAnalytics(), navigation, clipboard, logger });
  engine.start();
  return { engine, server, history, storage, errors };
}

async function settle() {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

const text = (engine: ReaderEngine) => engine.getSnapshot().primary.passage?.text ?? null;
const loading = (engine: ReaderEngine) => connectReaderColumn(engine.getSnapshot().primary.column, () => {});
const toasts = (engine: ReaderEngine) => engine.getSnapshot().toasts.context.toasts.map((t) => t.message);

describe('bug 1: a locked passage opens once access is gained', () => {
  it('a visitor on a GOLD passage sees the license state; after signing in as a licensed teacher the text shows, without a reload', async () => {
    const { engine, server } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'GOLD' }, position: 2 } });
    await settle();
    expect(loading(engine).needsLicense).toBe(true);
    expect(text(engine)).toBe('');

    server.reader = 'licensed';
    engine.send({ type: 'auth.signedIn' });
    engine.send({ type: 'user.loaded', hasRole: true, features: ['LEVELS', 'DECODE'] });
    await settle();
    expect(loading(engine).needsLicense).toBe(false);
    expect(text(engine)).toBe('<p>Edition 1, passage 2.</p>');
    expect(server.calls.filter((c) => c.startsWith('passage 1:2'))).toEqual(['passage 1:2 as visitor', 'passage 1:2 as licensed']);
    engine.stop();
  });

  it('a class code accepted in the reader asks again for the same edition and position', async () => {
    const { engine, server } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'GOLD' }, position: 3 } });
    await settle();
    expect(loading(engine).needsLicense).toBe(true);

    server.reader = 'classCode';
    engine.getChild('classCode')!.send({ type: 'classCode.submit', code: 'ABCD1234', source: 'reader' });
    await settle();
    expect(connectClassCode(engine.getSnapshot().classCode, () => {}).code).toBe('ABCD1234');
    expect(text(engine)).toBe('<p>Edition 1, passage 3.</p>');
    expect(server.calls).toContain('passage 1:3 as classCode');
    engine.stop();
  });
});

describe('bug 2: a failed class-code check is not a wrong code', () => {
  it("a rate-limited check shows the server's message and keeps the accepted code", async () => {
    const { engine, server, storage } = makeSystem();
    engine.getChild('classCode')!.send({ type: 'classCode.submit', code: 'GOODCODE', source: 'form' });
    await settle();
    expect(toasts(engine)).toEqual(['Class Code Accepted']);

    server.visitor = new PortFailure('rate_limited', 429, 'Too many wrong class codes. Try again in 5 minutes.');
    engine.getChild('classCode')!.send({ type: 'classCode.submit', code: 'OTHER123', source: 'form' });
    await settle();
    expect(toasts(engine)).toContain('Too many wrong class codes. Try again in 5 minutes.');
    expect(toasts(engine)).not.toContain('Invalid Class Code');
    const code = connectClassCode(engine.getSnapshot().classCode, () => {});
    expect(code.code).toBe('GOODCODE');
    expect(JSON.parse(storage.getItem('lectern.v1.groupCode')!)).toBe('GOODCODE');
    engine.stop();
  });

  it("a network failure with no code kept shows its message and leaves no code", async () => {
    const { engine, server } = makeSystem({ visitor: new PortFailure('network', 0, 'Something went wrong') });
    engine.getChild('classCode')!.send({ type: 'classCode.submit', code: 'ABCD1234', source: 'form' });
    await settle();
    expect(toasts(engine)).toEqual(['Something went wrong']);
    expect(connectClassCode(engine.getSnapshot().classCode, () => {}).code).toBeNull();
    server.visitor = { groupCodeValid: false, features: [] };
    engine.getChild('classCode')!.send({ type: 'classCode.submit', code: 'ABCD1234', source: 'form' });
    await settle();
    expect(toasts(engine)).toContain('Invalid Class Code');
    engine.stop();
  });
});

describe('bug 4: position 0', () => {
  it("says 'Passage not found' and loads no passage", async () => {
    const { engine, server } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 0 } });
    await settle();
    expect(connectReadingSession(engine.getSnapshot().session, () => {}).isPassageNotFound).toBe(true);
    expect(server.calls).toEqual([]);
    engine.stop();
  });
});

describe('missing editions', () => {
  it("one that cannot be created shows 'Passage not found'", async () => {
    const { engine, server } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'ru', level: 'GOLD' }, position: 1 } });
    await settle();
    expect(server.calls).toEqual(['createEdition']);
    expect(connectReaderColumn(engine.getSnapshot().primary.column, () => {}).missingError).toEqual({ status: 404, message: 'Passage not found' });
    engine.stop();
  });
});

describe('bug 3: highlight follows the column that plays', () => {
  it('the right column plays with highlight although the left edition offers none', async () => {
    const { engine } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: ['LEVELS', 'LANGUAGES', 'AUDIO'] });
    // The second column shows (and so may play) on a wide screen only.
    engine.send({ type: 'viewport.changed', wide: true });
    engine.send({
      type: 'reader.open',
      request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, secondary: { language: 'es', level: 'ORIGINAL' }, position: 1 },
    });
    await settle();
    const mode = () => connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e));
    expect(mode().canHighlight).toBe(false);
    engine.getChild('column.secondary')!.send({ type: 'audio.listen', on: true });
    await settle();
    expect(engine.getSnapshot().readerPlayer.slot).toBe('secondary');
    expect(mode().canHighlight).toBe(true);
    expect(mode().isHighlightOn).toBe(true);
    expect(engine.getSnapshot().secondary.display.highlight).toBe(true);
    expect(engine.getSnapshot().primary.display.highlight).toBe(false);
    engine.stop();
  });
});

describe('decode mode: the primary column loads its decoded text', () => {
  const open = (engine: ReaderEngine) =>
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 1 } });
  const mode = (engine: ReaderEngine) => connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e));

  it('decode on: the column loads, caches and shows the passage decoded; a page turn loads the next one', async () => {
    const { engine, server } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: ['DECODE'] });
    open(engine);
    await settle();
    mode(engine).toggleDecode();
    await settle();
    expect(server.calls.filter((c) => c.startsWith('decode'))).toEqual(['decode 201 of 2:1']);
    expect(mode(engine).isDecodeOn).toBe(true);
    expect(engine.getSnapshot().highlightDecode.context.hasDecodedText).toBe(true);
    expect(engine.getSnapshot().primary.passage?.textDecoded).toBe('<p><span class="syllable">Decoded 201</span></p>');
    expect(engine.getSnapshot().primary.display.decoded).toBe(true);

    engine.getChild('session')!.send({ type: 'page.next' });
    await settle();
    expect(server.calls.filter((c) => c.startsWith('decode'))).toEqual(['decode 201 of 2:1', 'decode 202 of 2:2']);
    expect(engine.getSnapshot().primary.passage?.textDecoded).toBe('<p><span class="syllable">Decoded 202</span></p>');
    expect(engine.getSnapshot().primary.display.decoded).toBe(true);

    // The passage cache kept the decoded text: turning back shows it without asking again.
    engine.getChild('session')!.send({ type: 'page.previous' });
    await settle();
    expect(server.calls.filter((c) => c.startsWith('decode'))).toHaveLength(2);
    expect(engine.getSnapshot().primary.display.decoded).toBe(true);
    engine.stop();
  });

  it("a failed load is logged ('Decoded text failed'); the passage shows as it is, decode stays on", async () => {
    const { engine, errors } = makeSystem({ decodedText: () => Promise.reject(new PortFailure('network', 0, 'Network down')) });
    engine.getChild('access')!.send({ type: 'user.features', features: ['DECODE'] });
    open(engine);
    await settle();
    mode(engine).toggleDecode();
    await settle();
    expect(errors).toEqual(['Decoded text failed']);
    expect(mode(engine).isDecodeOn).toBe(true);
    expect(text(engine)).toBe('<p>Edition 2, passage 1.</p>');
    expect(engine.getSnapshot().primary.display.decoded).toBe(false);
    engine.stop();
  });
});

describe('the role modal saves the role itself', () => {
  it('a pick is sent to the modal, which updates the role through the api port and closes', async () => {
    const { engine, server, errors } = makeSystem();
    engine.send({ type: 'user.loaded', hasRole: false, features: [] });
    const modal = () => connectRoleModal(engine.getSnapshot().roleModal, (e) => engine.getChild('roleModal')!.send(e));
    expect(modal().isOpen).toBe(true);
    modal().pick('TEACHER');
    expect(modal()).toMatchObject({ isOpen: true, isSaving: true });
    await settle();
    expect(server.calls).toEqual(['role TEACHER']);
    expect(modal().isOpen).toBe(false);
    expect(errors).toEqual([]);
    engine.stop();
  });

  it("a failed update is logged ('Failed to update user role') and the modal stays open", async () => {
    const { engine, server, errors } = makeSystem({ updateRole: () => Promise.reject(new PortFailure('network', 0, 'Network down')) });
    engine.send({ type: 'user.loaded', hasRole: false, features: [] });
    engine.getChild('roleModal')!.send({ type: 'role.pick', role: 'INDIVIDUAL' });
    await settle();
    expect(server.calls).toEqual(['role INDIVIDUAL']);
    expect(connectRoleModal(engine.getSnapshot().roleModal, () => {})).toMatchObject({ isOpen: true, isSaving: false });
    expect(errors).toEqual(['Failed to update user role']);
    engine.stop();
  });
});

describe('Copy Magic Link writes the clipboard itself', () => {
  const link = 'https://lectern.test/c/ABCD1234';
  const copy = (engine: ReaderEngine) => connectCopyLink(engine.getSnapshot().copyLink, (e) => engine.getChild('copyLink')!.send(e));

  it("a copy sent to the copy-link child writes the link, toasts, and reads 'Copied!'", async () => {
    const { engine, server } = makeSystem();
    copy(engine).copy(link);
    await settle();
    expect(server.calls).toEqual([`copy ${link}`]);
    expect(toasts(engine)).toEqual(['Magic link copied to clipboard!']);
    expect(copy(engine).buttonLabel).toBe('Copied!');
    engine.stop();
  });

  it("a refused write toasts 'Failed to copy link'", async () => {
    const { engine } = makeSystem({ writeText: () => Promise.reject(new Error('denied')) });
    copy(engine).copy(link);
    await settle();
    expect(toasts(engine)).toEqual(['Failed to copy link']);
    expect(copy(engine).buttonLabel).toBe('Copy Link');
    engine.stop();
  });
});

describe('the reading mode follows the primary edition', () => {
  it('a new primary edition starts the reading mode again from the saved mode: the same child, with what the new edition allows', async () => {
    const { engine } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: ['LEVELS', 'LANGUAGES', 'AUDIO'] });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 1 } });
    await settle();
    const first = engine.getChild('highlightDecode')!;
    const mode = () => connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e));
    expect(mode().canHighlight).toBe(false);

    // Spanish is narrated with highlight: the reading mode hears what it allows.
    engine.getChild('session')!.send({ type: 'language.change', slot: 'primary', language: 'es' });
    await settle();
    expect(engine.getChild('highlightDecode')).toBe(first);
    expect(mode().canHighlight).toBe(true);
    mode().toggleHighlight();
    await settle();
    expect(mode().isHighlightOn).toBe(true);

    // Back to English, which has no highlight: off; then Spanish again: the saved highlight comes back.
    engine.getChild('session')!.send({ type: 'language.change', slot: 'primary', language: 'en' });
    await settle();
    expect(mode().isHighlightOn).toBe(false);
    engine.getChild('session')!.send({ type: 'language.change', slot: 'primary', language: 'es' });
    await settle();
    expect(mode().isHighlightOn).toBe(true);
    engine.stop();
  });
});

describe('two columns in step', () => {
  it('the column that does not play follows the one that plays, when two columns show the same passage', async () => {
    const { engine } = makeSystem();
    engine.getChild('access')!.send({ type: 'user.features', features: ['LEVELS', 'LANGUAGES', 'AUDIO'] });
    // The second column shows (and so may play) on a wide screen only.
    engine.send({ type: 'viewport.changed', wide: true });
    engine.send({
      type: 'reader.open',
      request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, secondary: { language: 'es', level: 'ORIGINAL' }, position: 1 },
    });
    await settle();
    engine.getChild('column.secondary')!.send({ type: 'audio.listen', on: true });
    await settle();
    const { primary, secondary } = engine.getSnapshot();
    expect(secondary.display).toEqual({ decoded: false, highlight: true, follows: null });
    expect(primary.display).toEqual({ decoded: false, highlight: false, follows: { slot: 'secondary', language: 'es' } });
    // The same object while nothing it is made from changes, so the column does not render again.
    engine.getChild('toolbar')!.send({ type: 'toolbar.activity' });
    expect(engine.getSnapshot().primary.display.follows).toBe(primary.display.follows);

    // Highlight off: nothing is lit, so nothing follows.
    connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e)).toggleHighlight();
    await settle();
    expect(engine.getSnapshot().secondary.display.highlight).toBe(false);
    expect(engine.getSnapshot().primary.display.follows).toBeNull();
    connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e)).toggleHighlight();
    await settle();
    expect(engine.getSnapshot().primary.display.follows).toEqual({ slot: 'secondary', language: 'es' });

    // A narrow screen shows one column: nothing follows.
    engine.send({ type: 'viewport.changed', wide: false });
    expect(engine.getSnapshot().primary.display.follows).toBeNull();
    engine.send({ type: 'viewport.changed', wide: true });

    // The player closed: nothing follows either.
    engine.getChild('column.secondary')!.send({ type: 'audio.listen', on: false });
    await settle();
    expect(engine.getSnapshot().primary.display.follows).toBeNull();
    expect(engine.getSnapshot().secondary.display.follows).toBeNull();
    engine.stop();
  });
});

describe("a premium title the reader may not open", () => {
  it("leaves for the reader's library with 'Unlock Premium Novels', which stays open once the reader has closed", async () => {
    const premium = makeSystem({ publicationFailure: new PortFailure('premium_content', 403, 'Premium content') });
    premium.engine.getChild('access')!.send({ type: 'user.features', features: null });
    premium.engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', position: 1 } });
    await settle();
    expect(premium.history.at(-1)).toBe('/catalog');
    expect(premium.engine.getSnapshot().premiumDialog).toEqual({ feature: 'Novels' });
    premium.engine.send({ type: 'reader.close' });
    expect(premium.engine.getSnapshot().premiumDialog).toEqual({ feature: 'Novels' });
    premium.engine.stop();
  });
});
