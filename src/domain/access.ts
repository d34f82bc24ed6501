/**
 * The free tier and the feature gates (SPEC §3 Reading levels, Other language lists; §6 Feature gates and Content
 * gating). This is the one place the rules live: the server enforces them on every passage, audio, decode and
 * speech-marks request (server/access), and the client uses the same functions to grey out languages, lock
 * levels and offer the upgrade dialogs. docs/decisions.md ("Free tier") explains the choices.
 */
import type { LanguageCode } from './languages';
import type { Level } from './levels';
import type { ContentType } from './schemas';

/**
 * Levels everyone may read. SPEC §3 keeps the members of the free subset unshown but lists "a list holding the
 * single value ORIGINAL"; the graded GOLD and SILVER adaptations are what a school license buys.
 * @default ['ORIGINAL']
 */
export const FREE_LEVELS: readonly Level[] = ['ORIGINAL'];

/**
 * Languages everyone may read. SPEC §3 knows two variants, `en` alone and `en es zh fr ar`; we take the wider one,
 * without `fr`, which Lectern does not offer (SPEC §1's language list has no French).
 * @default ['en', 'es', 'zh', 'ar']
 */
export const FREE_LANGUAGES: readonly LanguageCode[] = ['en', 'es', 'zh', 'ar'];

/**
 * Languages whose narration is free to everyone who may read the passage (SPEC §6 Feature gates: "the language not
 * in an always-audio list"). English narration supports early readers and decode mode.
 * @default ['en']
 */
export const ALWAYS_AUDIO_LANGUAGES: readonly LanguageCode[] = ['en'];

/** The publication badge that makes a title premium: it needs LEVELS at every level (SPEC §6: premium novels). */
export const PREMIUM_BADGE = 'premium';

/** The message of a publication or class-code-required error that sends the reader back to the catalog (SPEC §8). */
export const PREMIUM_CONTENT_MESSAGE = 'Premium content';

/** The license panel's text (SPEC §6 Content gating). */
export const LICENSE_REQUIRED_MESSAGE = 'This content requires a School License';
/** The class-code panel's heading (SPEC §6 Content gating). */
export const GROUP_CODE_REQUIRED_MESSAGE = 'Enter Class Code or Sign In';

export type Features = readonly string[];

/** What the access rules read of a publication: its badges (PREMIUM). */
export interface GatedTitle {
  badges: readonly string[];
}

/** What the access rules read of an edition: its language and level. */
export interface GatedEdition {
  language: string;
  level: Level;
}

export function hasFeature(features: Features, feature: ContentType): boolean {
  return features.includes(feature);
}

export function isPremiumTitle(publication: GatedTitle): boolean {
  return publication.badges.includes(PREMIUM_BADGE);
}

/** A level outside the free set is locked without LEVELS (SPEC §5 Reading levels). */
export function isLevelLocked(level: Level, features: Features): boolean {
  return !FREE_LEVELS.includes(level) && !hasFeature(features, 'LEVELS');
}

/** A language outside the free list is greyed without LANGUAGES (SPEC §6 Feature gates: Languages). */
export function isLanguageLocked(language: string, features: Features): boolean {
  return !(FREE_LANGUAGES as readonly string[]).includes(language) && !hasFeature(features, 'LANGUAGES');
}

/** A premium title needs LEVELS (SPEC §6: "Levels: needed for premium levels and premium novels"). */
export function isTitleLocked(publication: GatedTitle, features: Features): boolean {
  return isPremiumTitle(publication) && !hasFeature(features, 'LEVELS');
}

/** Narration needs AUDIO unless the language is always voiced (SPEC §6 Feature gates: Audio). */
export function isAudioLocked(language: string, features: Features): boolean {
  return !(ALWAYS_AUDIO_LANGUAGES as readonly string[]).includes(language) && !hasFeature(features, 'AUDIO');
}

/** Decode mode needs DECODE (SPEC §4 Decode). */
export function isDecodeLocked(features: Features): boolean {
  return !hasFeature(features, 'DECODE');
}

/** The premium feature that a blocked read lacks, named as the 'Unlock Premium {feature}' dialog names it. */
export type LockedFeature = 'Levels' | 'Languages' | 'Novels';

/**
 * Whether the text of an edition may be read with these features, and if not, which feature is missing.
 * Order: a premium title first (its dialog is 'Unlock Premium Novels'), then the level, then the language.
 */
export function readLock(publication: GatedTitle, edition: GatedEdition, features: Features): LockedFeature | null {
  if (isTitleLocked(publication, features)) return 'Novels';
  if (isLevelLocked(edition.level, features)) return 'Levels';
  if (isLanguageLocked(edition.language, features)) return 'Languages';
  return null;
}

/** Whether anyone at all may read this edition's text (the answer can then be cached publicly). */
export function isFreeToRead(publication: GatedTitle, edition: GatedEdition): boolean {
  return readLock(publication, edition, []) === null;
}

/**
 * Who is asking, as the server resolved it: `features` are the reading features that apply to this title. A
 * class-code student holds their teacher's reading features on the titles the teacher ASSIGNED, and none
 * elsewhere; `invalidGroupCode` is true when the request carried a class code that did not resolve.
 */
export interface AccessActor {
  features: Features;
  invalidGroupCode: boolean;
}

/**
 * A class code's reading features reach only the titles its teacher shared with the class (ASSIGNED, or the
 * teacher's own uploads); on any other title the student reads as a visitor. The server applies it per request
 * (server/access), the engine per open title (from the visitor check's `titleIds`).
 */
export function classCodeFeatures(features: Features, sharedWithClass: boolean): Features {
  return sharedWithClass ? features : [];
}

/**
 * The features in force on a title: a class code's (`classTitleIds`, the titles its teacher shared) reach only those
 * titles; anyone else's (`classTitleIds` null) reach every title. With no title named, the features as they are.
 */
export function featuresOnTitle(features: Features, classTitleIds: readonly number[] | null, titleId: number | undefined): Features {
  if (classTitleIds === null || titleId === undefined) return features;
  return classCodeFeatures(features, classTitleIds.includes(titleId));
}

/**
 * Whether a premium title is closed to this reader, judged as GET /publications/{slug} judges it (403
 * `premium_content`): `features` are the signed-in user's or the class code's; `classTitleIds` are, for a
 * class-code student, the titles the teacher shared (a list still loading is empty), and null for anyone else,
 * whose features reach every title. A closed title's card opens 'Unlock Premium Novels' instead of the page.
 */
export function isTitleLockedFor(
  publication: GatedTitle & { id: number },
  features: Features,
  classTitleIds: readonly number[] | null,
): boolean {
  return isTitleLocked(publication, featuresOnTitle(features, classTitleIds, publication.id));
}

/** The outcome of a gated request (server/access; SPEC §3 Passage: groupCodeRequired and licenseRequired). */
export type AccessDecision = 'allowed' | 'licenseRequired' | 'groupCodeRequired';

/**
 * Whether a passage's text may be sent. A request with a class code that no longer works asks for a class code
 * again (the group-code panel); anyone else who lacks a feature gets the license panel.
 */
export function passageAccess(publication: GatedTitle, edition: GatedEdition, actor: AccessActor): AccessDecision {
  if (readLock(publication, edition, actor.features) === null) return 'allowed';
  return actor.invalidGroupCode ? 'groupCodeRequired' : 'licenseRequired';
}

/** Whether a passage's narration (audio, audio-only, speech marks) may be sent: readable, and voiced for them. */
export function audioAccess(publication: GatedTitle, edition: GatedEdition, actor: AccessActor): AccessDecision {
  const read = passageAccess(publication, edition, actor);
  if (read !== 'allowed') return read;
  return isAudioLocked(edition.language, actor.features) ? 'licenseRequired' : 'allowed';
}

/** Whether a passage's decode-mode markup may be sent: readable, and DECODE held. */
export function decodeAccess(publication: GatedTitle, edition: GatedEdition, actor: AccessActor): AccessDecision {
  const read = passageAccess(publication, edition, actor);
  if (read !== 'allowed') return read;
  return isDecodeLocked(actor.features) ? 'licenseRequired' : 'allowed';
}
