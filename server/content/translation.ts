/**
 * The translation provider interface for on-demand editions. When a reader asks for a language and level that
 * has neither an edition nor a source in content/, and a provider is configured, the server builds the edition by
 * translating the publication's edition at that level (or its default edition) passage by passage.
 *
 * No provider ships with Lectern: machine translation of a graded reader needs a service, keys and review, and we
 * will not present invented text as a translation. To add one, implement `TranslationProvider` and return it
 * from `loadTranslationProvider` for your configuration (e.g. TRANSLATION_PROVIDER=myservice plus its keys).
 */
import type { LanguageCode } from '../../src/domain/languages';

export interface TranslationProvider {
  /** Shown in logs. */
  readonly name: string;
  /**
   * Translate each passage's plain text from one language to another, keeping the passages in order and the
   * paragraph breaks ('\n'). Reject when the language pair is not supported.
   */
  translate(passages: readonly string[], from: LanguageCode, to: LanguageCode): Promise<string[]>;
}

export function loadTranslationProvider(env: NodeJS.ProcessEnv = process.env): TranslationProvider | null {
  const name = env.TRANSLATION_PROVIDER;
  if (!name) return null;
  throw new Error(`TRANSLATION_PROVIDER=${name} is not a provider this server knows (see server/content/translation.ts)`);
}
