/**
 * What the feature gates mean for the reader's views (SPEC §2 Reading level dropdown, Dialogs; §5 Reading levels;
 * §6 Feature gates). The rules themselves live in src/domain/access.ts, shared with the server; this module only
 * applies them to a column (its title, its edition choice and the features in force) and names the upgrade each
 * locked choice offers. The engine puts the result in its snapshot, so views render locks and hold no rule.
 */
import {
  isAudioLocked,
  isDecodeLocked,
  isLanguageLocked,
  isLevelLocked,
  isTitleLocked,
  type Features,
} from './access';
import type { Level } from './levels';
import type { Publication } from './schemas';

/** The premium features an 'Unlock Premium {feature}' dialog can name. */
export type PremiumFeature = 'Levels' | 'Languages' | 'Audio' | 'Decode' | 'Novels';

/** The tooltip of a locked level (SPEC §2 Reading level dropdown). */
export const LOCKED_LEVEL_TOOLTIP = 'Upgrade to access additional reading levels';
/** The tooltip of a locked Listen toggle (SPEC §8 Tooltips). */
export const LOCKED_AUDIO_TOOLTIP = 'Upgrade to access additional audio features';
/** The hint beside a greyed language in the language dropdown (ours; the spec says only that they are greyed). */
export const LOCKED_LANGUAGE_HINT = 'Premium';

/**
 * What the dialog says the feature needs (SPEC §2 Dialogs: "States that the feature requires a School License";
 * SPEC §6 Feature gates gives the decode sentence verbatim).
 */
export const PREMIUM_FEATURE_MESSAGES: Record<PremiumFeature, string> = {
  Levels: 'Additional reading levels require a School License.',
  Languages: 'Additional languages require a School License.',
  Audio: 'Additional audio features require a School License.',
  Decode: 'Decode Mode requires a school license.',
  Novels: 'Premium Novels require a School License.',
};

/** One reader column's locks, as the views render them. */
export interface ColumnLocks {
  /** The title is premium and the reader lacks LEVELS: every choice offers 'Unlock Premium Novels'. */
  titleLocked: boolean;
  /** The title's levels this reader may not open (a lock and the tooltip 'Upgrade to access additional reading levels'). */
  lockedLevels: Level[];
  /** The title's language codes shown greyed. */
  lockedLanguages: string[];
  /** The column's language is not voiced for this reader: Listen offers 'Unlock Premium Audio'. */
  audioLocked: boolean;
}

export const NO_LOCKS: ColumnLocks = Object.freeze({ titleLocked: false, lockedLevels: [], lockedLanguages: [], audioLocked: false }) as ColumnLocks;

/** The locks of a column showing `language` of `publication`, for a reader holding `features`. */
export function columnLocks(publication: Publication | null, language: string | null, features: Features): ColumnLocks {
  if (!publication || !language) return NO_LOCKS;
  const titleLocked = isTitleLocked(publication, features);
  const codes = [...new Set(publication.editions.map((e) => e.language.code as string))];
  return {
    titleLocked,
    lockedLevels: publication.levels.filter((level) => titleLocked || isLevelLocked(level, features)),
    lockedLanguages: codes.filter((code) => titleLocked || isLanguageLocked(code, features)),
    audioLocked: isAudioLocked(language, features),
  };
}

/** Which upgrade choosing this level offers, or null when it may be chosen. */
export function levelUpgrade(publication: Publication | null, level: Level, features: Features): PremiumFeature | null {
  if (publication && isTitleLocked(publication, features)) return 'Novels';
  return isLevelLocked(level, features) ? 'Levels' : null;
}

/** Which upgrade choosing this language offers, or null when it may be chosen. */
export function languageUpgrade(publication: Publication | null, language: string, features: Features): PremiumFeature | null {
  if (publication && isTitleLocked(publication, features)) return 'Novels';
  return isLanguageLocked(language, features) ? 'Languages' : null;
}

/** Whether the reader may use decode mode (the edition must offer it too). */
export function decodeUpgrade(features: Features): PremiumFeature | null {
  return isDecodeLocked(features) ? 'Decode' : null;
}

/**
 * The 'Unlock Premium {feature}' dialog as a small API (SPEC §2 Dialogs): its title, what the feature requires,
 * and closing it. The Learn More and sign-in links are the view's.
 */
export function connectPremiumDialog(dialog: { feature: string } | null, send: (event: { type: 'premiumDialog.close' }) => void) {
  const feature = dialog?.feature ?? null;
  return {
    isOpen: dialog !== null,
    feature,
    /** 'Unlock Premium Levels', 'Unlock Premium Novels', … */
    title: feature ? `Unlock Premium ${feature}` : '',
    message: feature ? (PREMIUM_FEATURE_MESSAGES[feature as PremiumFeature] ?? `${feature} requires a School License.`) : '',
    close: () => send({ type: 'premiumDialog.close' }),
  };
}

/** SPEC §8: a publication (or passage) refused as premium content ('Premium content') goes to the catalog. Told by the server's code. */
export function isPremiumContentError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'premium_content';
}

/**
 * The gate a failed request ran into (403 license_required or group_code_required from the passage, excerpt,
 * audio, speech-marks or decode endpoints), or null for any other failure.
 */
export function gateOfError(error: unknown): 'licenseRequired' | 'groupCodeRequired' | null {
  const e = error as { status?: unknown; code?: unknown } | null;
  if (e?.status !== 403) return null;
  if (e.code === 'license_required') return 'licenseRequired';
  if (e.code === 'group_code_required') return 'groupCodeRequired';
  return null;
}
