/** Types of build.mjs (plain JavaScript, run before anything is compiled). */
export declare const NATIVE_DIR: string;
/** The built helper program. */
export declare const NATIVE_BINARY: string;
/** What it was built from: `{ source, espeak, lame }` (the source's hash and the libraries' versions). */
export declare const NATIVE_RECORD: string;
export declare function buildNativeSpeech(): { upToDate: boolean; message: string };
