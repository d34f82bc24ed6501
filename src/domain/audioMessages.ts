/**
 * What a reader is told when there is no narration to play (SPEC §2 Reader screen and Listen page: the listen
 * control's tooltip on an edition without audio, a tapped word's toast, the teaser's audio bar). One string, so
 * the views, the machines and the engine say the same thing.
 */
export const AUDIO_NOT_AVAILABLE = 'Audio not available';
