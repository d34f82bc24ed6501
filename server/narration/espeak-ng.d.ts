/** The parts of @echogarden/espeak-ng-emscripten (eSpeak NG compiled to WASM, GPL-3) that Lectern uses. */
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakRawEvent {
    type: 'sentence' | 'word' | 'phoneme' | 'end' | 'mark' | 'play' | 'msg_terminated' | 'list_terminated' | 'samplerate';
    /** 1-based code-point position in the input text. */
    text_position: number;
    /** Length in code points (word events). */
    word_length: number;
    /** Milliseconds from the start of this synthesis. */
    audio_position: number;
    id?: string | number;
  }
  export interface EspeakNGWorker {
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): number;
    set_pitch(pitch: number): number;
    /** Calls back with each chunk of 16-bit PCM (22 050 Hz mono) and its events; return true to abort. */
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakRawEvent[]) => boolean): void;
    list_voices(): { identifier: string; name: string; languages: { priority: number; name: string }[] }[];
  }
  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakNGWorker;
  }
  const init: (options?: Record<string, unknown>) => Promise<EspeakModule>;
  export default init;
}
