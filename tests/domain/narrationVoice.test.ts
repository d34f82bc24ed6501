/** The names of the narrating voices: from a narration's key or address, and as the player says them. */
import { describe, expect, it } from 'vitest';
import { narrationVoiceOfKey, narrationVoiceOfUrl, voiceLabel } from '../../src/domain/narrationVoice';

const HEX = 'a'.repeat(32);

describe('narration voices', () => {
  it('reads the voice from a key: Flite slt, or espeak and its voice', () => {
    expect(narrationVoiceOfKey(`flite-slt-${HEX}`)).toBe('flite-slt');
    expect(narrationVoiceOfKey(`en-us-${HEX}`)).toBe('espeak-en-us');
    expect(narrationVoiceOfKey(`pt-br-${HEX}`)).toBe('espeak-pt-br');
    expect(narrationVoiceOfKey(`es-${HEX}`)).toBe('espeak-es');
    expect(narrationVoiceOfKey('flite-slt')).toBeNull();
    expect(narrationVoiceOfKey(`EN-${HEX}`)).toBeNull();
  });

  it('reads it from an MP3 address, and from nothing else', () => {
    expect(narrationVoiceOfUrl(`/audio/flite-slt-${HEX}.mp3`)).toBe('flite-slt');
    expect(narrationVoiceOfUrl(`https://lectern.example/audio/cmn-${HEX}.mp3?x=1`)).toBe('espeak-cmn');
    expect(narrationVoiceOfUrl(`/audio/${HEX}.mp3`)).toBeNull();
    expect(narrationVoiceOfUrl('/media/cover.svg')).toBeNull();
  });

  it('names a voice for the player', () => {
    expect(voiceLabel('flite-slt')).toBe('Flite slt');
    expect(voiceLabel('espeak-en-us')).toBe('eSpeak en-us');
    expect(voiceLabel('other')).toBe('other');
  });
});
