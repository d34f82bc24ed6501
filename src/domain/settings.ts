/**
 * The stored settings of SPEC §3 "Local browser storage", one versioned key each. Every read is validated: a
 * corrupt or foreign value falls back to that setting's default without touching the others. Older forms are
 * migrated on read and written back in the current form.
 */
import { z } from 'zod';
import { PLAYBACK_SPEEDS } from './constants';
import { LevelSchema } from './levelSchema';
import { parseEditionRef } from './reading';
import { READING_RULER_OPTIONS } from './readingRuler';
import { PAGE_TINTS, READING_FONTS, TEXT_SPACINGS } from './readingType';

/** How many recently used languages are remembered. The spec does not give the value. @default 5 */
export const RECENT_LANGUAGES_CAP = 5;

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


const speed = z.number().check(z.refine((n) => (PLAYBACK_SPEEDS as readonly number[]).includes(n)));

export const ReaderPositionSchema = z.object({
  language: z.string().check(z.minLength(1), z.maxLength(8)),
  level: LevelSchema,
  position: z.int().check(z.gte(1)),
  publicationSlug: z.string().check(z.minLength(1)),
  publicationVersion: z._default(z.string().check(z.regex(/^v\d+$/)), 'v1'),
  secondaryLanguage: z._default(z.nullable(z.string().check(z.minLength(1), z.maxLength(8))), null),
  secondaryLevel: z._default(z.nullable(LevelSchema), null),
});
export type ReaderPosition = z.infer<typeof ReaderPositionSchema>;

/** The older stored form: an edition slug, an optional secondary edition and a position. */
const LegacyPositionSchema = z.object({
  editionSlug: z.string(),
  secondaryEdition: z.optional(z.nullable(z.string())),
  position: z.union([z.number(), z.string()]),
  publicationSlug: z.optional(z.string()),
  publicationVersion: z.optional(z.string()),
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

const LastPassagesSchema = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((record: Record<string, unknown>) => {
    const out: Record<string, ReaderPosition> = {};
    for (const [slug, value] of Object.entries(record)) {
      const migrated = migratePosition(slug, value);
      if (migrated) out[slug] = migrated;
    }
    return out;
  }),
);

/** Every setting: its schema and default. */
export const SETTINGS = {
  audioSettings: {
    schema: z.object({
      audioControlState: z.catch(z.enum(['closed', 'paused', 'playing']), 'paused'),
      autoPlay: z.catch(z.boolean(), false),
      currentTime: z.catch(z.number().check(z.gte(0)), 0),
      editionSelected: z.catch(z.enum(['primary', 'secondary']), 'primary'),
      highlight: z.catch(z.boolean(), false),
      /** Playback speed per edition id (src/domain/playbackSpeed.ts; the playbackSpeed query parameter sets it). */
      playbackSpeed: z.catch(z.record(z.string(), speed), {}),
    }),
    default: null,
  },
  clientId: { schema: z.string().check(z.regex(/^[A-Za-z0-9-]{8,64}$/)), default: null },
  features: { schema: z.array(z.string().check(z.maxLength(40))).check(z.maxLength(50)), default: [] as string[] },
  groupCode: { schema: z.string().check(z.regex(/^[A-Za-z0-9]{1,16}$/)), default: null },
  /** The titles the stored class code opens (GET /visitors/me titleIds); null until a check has answered. */
  classTitleIds: { schema: z.array(z.int()).check(z.maxLength(100_000)), default: null as number[] | null },
  lastPassages: { schema: LastPassagesSchema, default: {} as Record<string, ReaderPosition> },
  readerSettings: {
    schema: z.object({
      fontSize: z.catch(z.enum(FONT_SIZES), 'default'),
      illustratedModeFontSize: z.catch(z.enum(FONT_SIZES), 'large'),
      decodeEnabled: z.catch(z.boolean(), false),
      columns: z.catch(z.enum(COLUMN_OPTIONS), 'one-column'),
      /**
       * The reading ruler (src/domain/readingRuler.ts), off by default. Added after the first form of this setting:
       * a stored value without it reads as 'off' with its other fields kept, and is written back whole at the
       * next change (the migration; tests/engine/settings.test.ts).
       */
      readingRuler: z.catch(z.enum(READING_RULER_OPTIONS), 'off'),
      /**
       * Type and spacing (src/domain/readingType.ts), added with the same migration as the ruler: missing or
       * unknown values read as the default.
       */
      readingFont: z.catch(z.enum(READING_FONTS), 'default'),
      textSpacing: z.catch(z.enum(TEXT_SPACINGS), 'default'),
      pageTint: z.catch(z.enum(PAGE_TINTS), 'white'),
      /** Word mode (src/domain/wordAudio.ts): a tapped word, or Enter on the word cursor, says the word. Off by default. */
      wordMode: z.catch(z.boolean(), false),
    }),
    default: {
      fontSize: 'default',
      illustratedModeFontSize: 'large',
      decodeEnabled: false,
      columns: 'one-column',
      readingRuler: 'off',
      readingFont: 'default',
      textSpacing: 'default',
      pageTint: 'white',
      wordMode: false,
    } as const,
  },
  recentLanguages: {
    schema: z.pipe(
      z.array(z.string().check(z.minLength(1), z.maxLength(8))),
      z.transform((list: string[]) => [...new Set(list)].slice(0, RECENT_LANGUAGES_CAP)),
    ),
    default: [] as string[],
  },
  editionIndicatorSeen: { schema: z.boolean(), default: false },
  roleModalClosed: { schema: z.boolean(), default: false },
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<K extends SettingName> = z.output<(typeof SETTINGS)[K]['schema']> | (typeof SETTINGS)[K]['default'];
export type AudioSettings = z.output<(typeof SETTINGS)['audioSettings']['schema']>;
export type ReaderSettings = z.output<(typeof SETTINGS)['readerSettings']['schema']>;

/** The settings the reader engine keeps (every one but the client id, which the API client owns). */
export type EngineSettingName = Exclude<SettingName, 'clientId'>;
export const ENGINE_SETTINGS = Object.keys(SETTINGS).filter((name): name is EngineSettingName => name !== 'clientId');

/** The stored settings as the engine holds them, read once at start. */
export type StoredSettings = { [K in EngineSettingName]: SettingValue<K> };

/** A write of one setting; null removes it (it reads as its default again). */
export type SettingWrite = { [K in EngineSettingName]: { name: K; value: SettingValue<K> | null } }[EngineSettingName];

/** The stored settings with one write applied. */
export function withSetting(settings: StoredSettings, write: SettingWrite): StoredSettings {
  return { ...settings, [write.name]: write.value ?? SETTINGS[write.name].default };
}

/**
 * A change of one stored setting, as the reader's machines ask for it: a whole value, or a patch merged into the
 * stored one. A patch of the audio settings with `create: false` changes saved ones and creates none (saved audio
 * settings start the player paused on the next visit, so only using the player creates them).
 */
export type SettingChange =
  | SettingWrite
  | { name: 'audioSettings'; patch: Partial<AudioSettings>; create?: boolean }
  | { name: 'readerSettings'; patch: Partial<ReaderSettings> }
  | { name: 'lastPassages'; patch: Record<string, ReaderPosition> };

/** Saved audio settings with a change applied (defaults for a first save). */
export function audioSettingsWith(current: AudioSettings | null, patch: Partial<AudioSettings>): AudioSettings {
  return {
    audioControlState: current?.audioControlState ?? 'closed',
    autoPlay: current?.autoPlay ?? false,
    currentTime: current?.currentTime ?? 0,
    editionSelected: current?.editionSelected ?? 'primary',
    playbackSpeed: current?.playbackSpeed ?? {},
    highlight: current?.highlight ?? false,
    ...patch,
  };
}

/** The whole value a change stores. */
export function settingWriteOf(settings: StoredSettings, change: SettingChange): SettingWrite {
  if ('value' in change) return change;
  if (change.name === 'readerSettings') return { name: change.name, value: { ...settings.readerSettings, ...change.patch } };
  if (change.name === 'lastPassages') return { name: change.name, value: { ...settings.lastPassages, ...change.patch } };
  const create = settings.audioSettings !== null || change.create !== false;
  return { name: change.name, value: create ? audioSettingsWith(settings.audioSettings, change.patch) : null };
}

/** Unversioned keys of the older app, read once and migrated. */
export const LEGACY_KEYS: Partial<Record<SettingName, string>> = {
  lastPassages: 'lastPassages',
  audioSettings: 'audioSettings',
  readerSettings: 'readerSettings',
  groupCode: 'groupCode',
  recentLanguages: 'recentlyUsedLanguages',
};

export function storageKey(name: SettingName): string {
  return STORAGE_PREFIX + name;
}

