/**
 * The voices that narrate, by the names the audio answers give them (`audio.voice`): 'flite-slt' (CMU Flite's
 * slt, English) and 'espeak-<voice>' (eSpeak NG, e.g. 'espeak-en-us', 'espeak-pt-br'). One rule for the server
 * and the reader: a narration's key (its MP3's name, `/audio/<key>.mp3`) is `<key voice>-<32 hex digits>`, where the
 * key voice is 'flite-slt' or espeak's own voice name (server/narration/voices.ts), so the voice of any narration
 * follows from its address, including one stored offline before the answers named it.
 */

export const FLITE_SLT = 'flite-slt';

/** The answer's name of an espeak voice: 'en-us' → 'espeak-en-us'. */
export const espeakVoiceName = (espeak: string) => `espeak-${espeak}`;

const KEY_RE = /^([a-z0-9]+(?:-[a-z0-9]+)*)-[0-9a-f]{32}$/;

/** The voice of a narration key ('flite-slt-…' → 'flite-slt', 'en-us-…' → 'espeak-en-us'), or null. */
export function narrationVoiceOfKey(key: string): string | null {
  const match = KEY_RE.exec(key);
  if (!match) return null;
  return match[1] === FLITE_SLT ? FLITE_SLT : espeakVoiceName(match[1]);
}

/** The voice of a narration's MP3 address ('/audio/<key>.mp3'), or null for any other address. */
export function narrationVoiceOfUrl(url: string): string | null {
  const match = /\/audio\/([^/?#]+)\.mp3(?:[?#].*)?$/.exec(url);
  return match ? narrationVoiceOfKey(match[1]) : null;
}

/** How the player names a voice: 'Flite slt', 'eSpeak en-us'. */
export function voiceLabel(voice: string): string {
  if (voice.startsWith('flite-')) return `Flite ${voice.slice('flite-'.length)}`;
  if (voice.startsWith('espeak-')) return `eSpeak ${voice.slice('espeak-'.length)}`;
  return voice;
}
