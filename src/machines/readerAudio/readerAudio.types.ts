/** Reader audio player (SPEC §4 Audio control state: reader audio player; §4 Tracked events). */

export interface ReaderAudioInput {
  /** Whether audio settings were saved on an earlier visit. With them the player starts `paused`, else `closed`. */
  hasSavedSettings: boolean;
}

export type ReaderAudioEvent =
  /** Open the player from `closed`; it starts playing. Tracked as 'Opened Audio Player'. */
  | { type: 'audio.open' }
  /** Close the player. Tracked as 'Closed Audio Player'. */
  | { type: 'audio.close' }
  /** Pause playback. Tracked as 'Paused Audio'. */
  | { type: 'audio.pause' }
  /** Resume playback from `paused`. Tracked as 'Resumed Audio'. */
  | { type: 'audio.play' }
  /** The play/pause control: pauses when playing, resumes when paused, opens and plays when closed. */
  | { type: 'audio.toggle' }
  /** Sent by the engine when the audio element reaches its end. Not tracked. */
  | { type: 'audio.ended' }
  /** Sent by the engine when the passage needs a license: the player is forced closed, with no tracking event. */
  | { type: 'license.required' };

export type ReaderAudioState = 'closed' | 'paused' | 'playing';
