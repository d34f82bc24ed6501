import { describe, expect, it } from 'vitest';
import { createMemoryStorage, createSettingsStore, migratePosition, storageKey, SETTINGS } from '../../src/engine/settings';
import { RECENT_LANGUAGES_CAP } from '../../src/machines/readingSession';

describe('stored settings (SPEC §3 Local browser storage)', () => {
  it('uses versioned keys and gives defaults when nothing is stored', () => {
    const settings = createSettingsStore(createMemoryStorage());
    expect(storageKey('readerSettings')).toBe('lectern.v1.readerSettings');
    expect(settings.get('readerSettings')).toEqual({ fontSize: 'default', illustratedModeFontSize: 'large', decodeEnabled: false, columns: 'one-column', readingRuler: 'off', readingFont: 'default', textSpacing: 'default', pageTint: 'white', wordMode: false });
    expect(settings.get('audioSettings')).toBeNull();
    expect(settings.get('recentLanguages')).toEqual([]);
    expect(settings.get('roleModalClosed')).toBe(false);
    expect(settings.get('groupCode')).toBeNull();
  });

  it('migrates reader settings stored before the reading ruler: the ruler reads as off, the other fields are kept', () => {
    const storage = createMemoryStorage({
      'lectern.v1.readerSettings': JSON.stringify({ fontSize: 'large', illustratedModeFontSize: 'large', decodeEnabled: true, columns: 'two-column' }),
    });
    const settings = createSettingsStore(storage);
    expect(settings.get('readerSettings')).toEqual({ fontSize: 'large', illustratedModeFontSize: 'large', decodeEnabled: true, columns: 'two-column', readingRuler: 'off', readingFont: 'default', textSpacing: 'default', pageTint: 'white', wordMode: false });
    settings.set('readerSettings', { ...settings.get('readerSettings'), readingRuler: '3' });
    expect(JSON.parse(storage.getItem('lectern.v1.readerSettings')!)).toEqual({ fontSize: 'large', illustratedModeFontSize: 'large', decodeEnabled: true, columns: 'two-column', readingRuler: '3', readingFont: 'default', textSpacing: 'default', pageTint: 'white', wordMode: false });
    // A value no version wrote falls back to off without touching the rest.
    storage.setItem('lectern.v1.readerSettings', JSON.stringify({ fontSize: 'large', illustratedModeFontSize: 'large', decodeEnabled: false, columns: 'one-column', readingRuler: '9' }));
    expect(createSettingsStore(storage).get('readerSettings')).toMatchObject({ fontSize: 'large', readingRuler: 'off' });
  });

  it('migrates reader settings stored before type and spacing: font, spacing and tint read as their defaults', () => {
    const storage = createMemoryStorage({
      'lectern.v1.readerSettings': JSON.stringify({ fontSize: 'large', illustratedModeFontSize: 'large', decodeEnabled: false, columns: 'one-column', readingRuler: '2' }),
    });
    const settings = createSettingsStore(storage);
    expect(settings.get('readerSettings')).toMatchObject({ fontSize: 'large', readingRuler: '2', readingFont: 'default', textSpacing: 'default', pageTint: 'white' });
    settings.set('readerSettings', { ...settings.get('readerSettings'), readingFont: 'opendyslexic', textSpacing: 'wider', pageTint: 'dark' });
    expect(createSettingsStore(storage).get('readerSettings')).toMatchObject({ readingRuler: '2', readingFont: 'opendyslexic', textSpacing: 'wider', pageTint: 'dark' });
    // Unknown values fall back one by one.
    storage.setItem('lectern.v1.readerSettings', JSON.stringify({ fontSize: 'large', readingFont: 'Comic Sans', textSpacing: 'wider', pageTint: 'pink' }));
    expect(createSettingsStore(storage).get('readerSettings')).toMatchObject({ fontSize: 'large', readingFont: 'default', textSpacing: 'wider', pageTint: 'white' });
  });

  it('round-trips every setting', () => {
    const storage = createMemoryStorage();
    const settings = createSettingsStore(storage);
    settings.set('readerSettings', { fontSize: 'large', illustratedModeFontSize: 'extra-large', decodeEnabled: true, columns: 'two-column', readingRuler: '2', readingFont: 'lexend', textSpacing: 'wide', pageTint: 'cream', wordMode: true });
    settings.set('audioSettings', { audioControlState: 'playing', autoPlay: true, currentTime: 12.5, editionSelected: 'secondary', highlight: true, playbackSpeed: { default: 1.5 } });
    settings.set('groupCode', 'ABCD1234');
    settings.set('recentLanguages', ['es', 'ar']);
    settings.set('editionIndicatorSeen', true);
    const again = createSettingsStore(storage);
    expect(again.get('readerSettings').fontSize).toBe('large');
    expect(again.get('readerSettings')).toMatchObject({ readingRuler: '2', readingFont: 'lexend', textSpacing: 'wide', pageTint: 'cream', wordMode: true });
    expect(again.get('audioSettings')).toMatchObject({ autoPlay: true, playbackSpeed: { default: 1.5 } });
    expect(again.get('groupCode')).toBe('ABCD1234');
    expect(again.get('recentLanguages')).toEqual(['es', 'ar']);
    expect(again.get('editionIndicatorSeen')).toBe(true);
  });

  it('falls back to the default for a corrupt or foreign value, without losing the others', () => {
    const problems: string[] = [];
    const storage = createMemoryStorage({
      'lectern.v1.readerSettings': '{not json',
      'lectern.v1.recentLanguages': JSON.stringify({ evil: true }),
      'lectern.v1.roleModalClosed': '"yes"',
      'lectern.v1.groupCode': JSON.stringify('<script>'),
      'lectern.v1.editionIndicatorSeen': 'true',
    });
    const settings = createSettingsStore(storage, (m) => problems.push(m));
    expect(settings.get('readerSettings')).toEqual(SETTINGS.readerSettings.default);
    expect(settings.get('recentLanguages')).toEqual([]);
    expect(settings.get('roleModalClosed')).toBe(false);
    expect(settings.get('groupCode')).toBeNull();
    expect(settings.get('editionIndicatorSeen')).toBe(true);
    expect(problems.length).toBe(4);
  });

  it('repairs single bad fields inside an object instead of dropping it', () => {
    const storage = createMemoryStorage({
      'lectern.v1.readerSettings': JSON.stringify({ fontSize: 'gigantic', illustratedModeFontSize: 'large', decodeEnabled: true }),
      'lectern.v1.audioSettings': JSON.stringify({ audioControlState: 'paused', autoPlay: 'sometimes', playbackSpeed: { default: 7 } }),
    });
    const settings = createSettingsStore(storage);
    expect(settings.get('readerSettings')).toMatchObject({ fontSize: 'default', decodeEnabled: true });
    expect(settings.get('audioSettings')).toMatchObject({ audioControlState: 'paused', autoPlay: false, playbackSpeed: {} });
  });

  it('survives a storage that throws (private mode, full quota)', () => {
    const settings = createSettingsStore({
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    });
    expect(settings.get('readerSettings')).toEqual(SETTINGS.readerSettings.default);
    expect(() => settings.set('groupCode', 'ABCD1234')).not.toThrow();
  });

  it('writes a setting only when its stored text changes, and again after a removal', () => {
    const storage = createMemoryStorage();
    const writes: string[] = [];
    const counted = { ...storage, setItem: (k: string, v: string) => (writes.push(k), storage.setItem(k, v)) };
    const settings = createSettingsStore(counted);
    settings.set('recentLanguages', ['es']);
    settings.set('recentLanguages', ['es']);
    expect(writes).toEqual(['lectern.v1.recentLanguages']);
    settings.set('recentLanguages', ['es', 'ar']);
    settings.remove('recentLanguages');
    settings.set('recentLanguages', ['es', 'ar']);
    expect(writes).toHaveLength(3);
    expect(storage.dump()['lectern.v1.recentLanguages']).toBe('["es","ar"]');
  });

  it('caps recently used languages and drops duplicates', () => {
    const storage = createMemoryStorage({ 'lectern.v1.recentLanguages': JSON.stringify(['es', 'es', 'ar', 'zh', 'ru', 'pt', 'vi', 'bn']) });
    expect(createSettingsStore(storage).get('recentLanguages')).toEqual(['es', 'ar', 'zh', 'ru', 'pt'].slice(0, RECENT_LANGUAGES_CAP));
  });

  it('refuses to store an invalid value', () => {
    const settings = createSettingsStore(createMemoryStorage());
    expect(() => settings.set('groupCode', 'not a code!' as never)).toThrow();
  });
});

describe('migrating older stored forms', () => {
  it("converts the old reader position (editionSlug, secondaryEdition, position) to the current one", () => {
    expect(migratePosition('fox', { editionSlug: 'es-GOLD', secondaryEdition: 'ORIGINAL', position: '4' })).toEqual({
      language: 'es',
      level: 'GOLD',
      position: 4,
      publicationSlug: 'fox',
      publicationVersion: 'v1',
      secondaryLanguage: 'en',
      secondaryLevel: 'ORIGINAL',
    });
    expect(migratePosition('fox', { editionSlug: 'SILVER', position: 'x' })).toMatchObject({ language: 'en', level: 'SILVER', position: 1 });
    expect(migratePosition('fox', { editionSlug: 'nonsense', position: 2 })).toBeNull();
  });

  it('reads an old unversioned key once, rewrites it under the versioned key, and removes the old one', () => {
    const storage = createMemoryStorage({
      lastPassages: JSON.stringify({ fox: { editionSlug: 'en-ORIGINAL', position: 3 }, broken: 42 }),
    });
    const settings = createSettingsStore(storage);
    expect(settings.get('lastPassages')).toEqual({
      fox: { language: 'en', level: 'ORIGINAL', position: 3, publicationSlug: 'fox', publicationVersion: 'v1', secondaryLanguage: null, secondaryLevel: null },
    });
    expect(storage.getItem('lastPassages')).toBeNull();
    expect(JSON.parse(storage.getItem('lectern.v1.lastPassages')!).fox.language).toBe('en');
  });

  it('keeps the current form as it is', () => {
    const current = { language: 'ar', level: 'ORIGINAL', position: 2, publicationSlug: 'bees', publicationVersion: 'v2', secondaryLanguage: null, secondaryLevel: null };
    expect(migratePosition('bees', current)).toEqual(current);
  });
});
