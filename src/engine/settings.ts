/**
 * The stored settings of SPEC §3 "Local browser storage", one versioned key each. Every read is validated: a
 * corrupt or foreign value falls back to that setting's default without touching the others. Older forms are
 * migrated on read and written back in the current form.
 */
import { z } from 'zod';
import { PLAYBACK_SPEEDS } from '../domain/constants';
import { LevelSchema } from '../domain/schemas';
import { parseEditionRef } from '../domain/reading';
import type { StoragePort } from './ports';
import { RECENT_LANGUAGES_CAP } from '../machines/readingSession/readingSession.machine';

export const STORAGE_PREFIX = 'lectern.v1.';

export const FONT_SIZES = ['default', 'slightly_large', 'large', 'extra-large'] as const;
export const FONT_SIZE_LABELS: Record<(typeof FONT_SIZES)[number], string> = {
  default: 'Default',
  slightly_large: 'Slightly Larger',
  large: 'Larger',
  'extra-large': 'Extra Large',
};
export const COLUMN_OPTIONS = ['one-column', 'two-column'] as const;
export const COLUMN_LABELS: Record<(typeof COLUMN_OPTIONS)[number], string> = { 'one-column': '1 Column', 'two-column': '2 Columns' };


const speed = z.number().refine((n) => (PLAYBACK_SPEEDS as readonly number[]).includes(n));

export const ReaderPositionSchema = z.object({
  language: z.string().min(1).max(8),
  level: LevelSchema,
  position: z.number().int().min(1),
  publicationSlug: z.string().min(1),
  publicationVersion: z.string().regex(/^v\d+$/).default('v1'),
  secondaryLanguage: z.string().min(1).max(8).nullable().default(null),
  secondaryLevel: LevelSchema.nullable().default(null),
});
export type ReaderPosition = z.infer<typeof ReaderPositionSchema>;

/** The older stored form: an edition slug, an optional secondary edition and a position. */
const LegacyPositionSchema = z.object({
  editionSlug: z.string(),
  secondaryEdition: z.string().nullable().optional(),
  position: z.union([z.number(), z.string()]),
  publicationSlug: z.string().optional(),
  publicationVersion: z.string().optional(),
});

/** Convert one stored position, current or legacy, to the current form; null when it cannot be read. */
export function migratePosition(slug: string, value: unknown): ReaderPosition | null {
  const current = ReaderPositionSchema.safeParse(value);
  if (current.success) return current.data;
  const legacy = LegacyPositionSchema.safeParse(value);
  if (!legacy.success) return null;
  const primary = parseEditionRef(legacy.data.editionSlug);
  if (!primary) return null;
  const secondary = legacy.data.secondaryEdition ? parseEditionRef(legacy.data.secondaryEdition) : null;
  const position = Number(legacy.data.position);
  return {
    language: primary.language,
    level: primary.level,
    position: Number.isInteger(position) && position >= 1 ? position : 1,
    publicationSlug: legacy.data.publicationSlug ?? slug,
    publicationVersion: /^v\d+$/.test(legacy.data.publicationVersion ?? '') ? legacy.data.publicationVersion! : 'v1',
    secondaryLanguage: secondary?.language ?? null,
    secondaryLevel: secondary?.level ?? null,
  };
}

const LastPassagesSchema = z.record(z.string(), z.unknown()).transform((record) => {
  const out: Record<string, ReaderPosition> = {};
  for (const [slug, value] of Object.entries(record)) {
    const migrated = migratePosition(slug, value);
    if (migrated) out[slug] = migrated;
  }
  return out;
});

/** Every setting: its schema and default. */
export const SETTINGS = {
  audioSettings: {
    schema: z.object({
      audioControlState: z.enum(['closed', 'paused', 'playing']).catch('paused'),
      autoPlay: z.boolean().catch(false),
      currentTime: z.number().min(0).catch(0),
      editionSelected: z.enum(['primary', 'secondary']).catch('primary'),
      highlight: z.boolean().catch(false),
      /** Playback speed per edition id (src/domain/playbackSpeed.ts; the playbackSpeed query parameter sets it). */
      playbackSpeed: z.record(z.string(), speed).catch({}),
    }),
    default: null,
  },
  clientId: { schema: z.string().regex(/^[A-Za-z0-9-]{8,64}$/), default: null },
  features: { schema: z.array(z.string().max(40)).max(50), default: [] as string[] },
  groupCode: { schema: z.string().regex(/^[A-Za-z0-9]{1,16}$/), default: null },
  /** The titles the stored class code opens (GET /visitors/me titleIds); null until a check has answered. */
  classTitleIds: { schema: z.array(z.number().int()).max(100_000), default: null as number[] | null },
  lastPassages: { schema: LastPassagesSchema, default: {} as Record<string, ReaderPosition> },
  readerSettings: {
    schema: z.object({
      fontSize: z.enum(FONT_SIZES).catch('default'),
      illustratedModeFontSize: z.enum(FONT_SIZES).catch('large'),
      decodeEnabled: z.boolean().catch(false),
      columns: z.enum(COLUMN_OPTIONS).catch('one-column'),
    }),
    default: { fontSize: 'default', illustratedModeFontSize: 'large', decodeEnabled: false, columns: 'one-column' } as const,
  },
  recentLanguages: {
    schema: z
      .array(z.string().min(1).max(8))
      .transform((list) => [...new Set(list)].slice(0, RECENT_LANGUAGES_CAP)),
    default: [] as string[],
  },
  editionIndicatorSeen: { schema: z.boolean(), default: false },
  roleModalClosed: { schema: z.boolean(), default: false },
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<K extends SettingName> = z.output<(typeof SETTINGS)[K]['schema']> | (typeof SETTINGS)[K]['default'];
export type AudioSettings = z.output<(typeof SETTINGS)['audioSettings']['schema']>;
export type ReaderSettings = z.output<(typeof SETTINGS)['readerSettings']['schema']>;

/** Unversioned keys of the older app, read once and migrated. */
const LEGACY_KEYS: Partial<Record<SettingName, string>> = {
  lastPassages: 'lastPassages',
  audioSettings: 'audioSettings',
  readerSettings: 'readerSettings',
  groupCode: 'groupCode',
  recentLanguages: 'recentlyUsedLanguages',
};

export function storageKey(name: SettingName): string {
  return STORAGE_PREFIX + name;
}

export interface SettingsStore {
  get<K extends SettingName>(name: K): SettingValue<K>;
  set<K extends SettingName>(name: K, value: z.input<(typeof SETTINGS)[K]['schema']> | null): void;
  remove(name: SettingName): void;
}

export function createSettingsStore(storage: StoragePort, onProblem?: (message: string) => void): SettingsStore {
  const read = (key: string): unknown => {
    let raw: string | null = null;
    try {
      raw = storage.getItem(key);
    } catch {
      return undefined;
    }
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return Symbol.for('corrupt');
    }
  };
  const write = (key: string, value: unknown) => {
    try {
      storage.setItem(key, JSON.stringify(value));
    } catch (error) {
      onProblem?.(`Could not save ${key}: ${String(error)}`);
    }
  };
  return {
    get(name) {
      const spec = SETTINGS[name];
      let raw = read(storageKey(name));
      const legacyKey = LEGACY_KEYS[name];
      if (raw === undefined && legacyKey) {
        raw = read(legacyKey);
        if (raw !== undefined) {
          const migrated = spec.schema.safeParse(raw);
          if (migrated.success) write(storageKey(name), migrated.data);
          try {
            storage.removeItem(legacyKey);
          } catch {
            /* ignore */
          }
        }
      }
      if (raw === undefined) return spec.default as SettingValue<typeof name>;
      const parsed = spec.schema.safeParse(raw);
      if (!parsed.success) {
        onProblem?.(`Ignored an unreadable value for ${storageKey(name)}`);
        return spec.default as SettingValue<typeof name>;
      }
      return parsed.data as SettingValue<typeof name>;
    },
    set(name, value) {
      if (value === null) {
        this.remove(name);
        return;
      }
      const parsed = SETTINGS[name].schema.safeParse(value);
      if (!parsed.success) throw new Error(`Refusing to store an invalid ${name}`);
      write(storageKey(name), parsed.data);
    },
    remove(name) {
      try {
        storage.removeItem(storageKey(name));
      } catch {
        /* ignore */
      }
    },
  };
}

export function createMemoryStorage(initial: Record<string, string> = {}): StoragePort & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    dump: () => Object.fromEntries(map),
  };
}
