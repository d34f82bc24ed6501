// Builds the native narration helper (lectern-speech.c) where the machine can: a C compiler and the headers and
// libraries of eSpeak NG and LAME (Debian: `apt-get install libespeak-ng-dev libmp3lame-dev`). Elsewhere it says
// so in one line and the server narrates with the portable pipeline (espeak's JavaScript build and LAME's WASM).
//
// Plain JavaScript, because it runs before anything is compiled: from `npm install` (postinstall), `npm start`
// and `npm test`. `npm run build:native` runs it alone. The helper and a record of what it was built from
// (build/native/lectern-speech.json: the source's hash and the libraries' versions) are written to temporary
// files and renamed, so a server starting meanwhile never runs a half-written program. It is built again when
// the source changes.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCE = path.join(import.meta.dirname, 'lectern-speech.c');
export const NATIVE_DIR = path.join(ROOT, 'build/native');
export const NATIVE_BINARY = path.join(NATIVE_DIR, 'lectern-speech');
export const NATIVE_RECORD = path.join(NATIVE_DIR, 'lectern-speech.json');

/** Builds the helper if it is missing or stale; returns what happened, in words (`upToDate` when nothing was done). Never throws. */
export function buildNativeSpeech() {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(SOURCE)).digest('hex').slice(0, 16);
  try {
    const record = JSON.parse(fs.readFileSync(NATIVE_RECORD, 'utf8'));
    if (record.source === hash && fs.existsSync(NATIVE_BINARY)) return { upToDate: true, message: `native narration: up to date (espeak-ng ${record.espeak}, LAME ${record.lame})` };
  } catch {
    // Not built yet.
  }
  fs.mkdirSync(NATIVE_DIR, { recursive: true });
  const tmp = `${NATIVE_BINARY}.${process.pid}.tmp`;
  try {
    execFileSync(process.env.CC || 'cc', ['-O2', '-o', tmp, SOURCE, '-lespeak-ng', '-lmp3lame'], { stdio: 'pipe' });
    const versions = JSON.parse(execFileSync(tmp, ['--version'], { encoding: 'utf8' }));
    fs.renameSync(tmp, NATIVE_BINARY);
    const recordTmp = `${NATIVE_RECORD}.${process.pid}.tmp`;
    fs.writeFileSync(recordTmp, JSON.stringify({ source: hash, espeak: versions.espeak, lame: versions.lame }));
    fs.renameSync(recordTmp, NATIVE_RECORD);
    return { upToDate: false, message: `native narration: built (espeak-ng ${versions.espeak}, LAME ${versions.lame})` };
  } catch {
    fs.rmSync(tmp, { force: true });
    // A helper from an older source would narrate differently from what its record says: remove both.
    fs.rmSync(NATIVE_BINARY, { force: true });
    fs.rmSync(NATIVE_RECORD, { force: true });
    return {
      upToDate: false,
      message: 'native narration: not built (needs a C compiler, libespeak-ng-dev and libmp3lame-dev); narrating with the portable pipeline',
    };
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  console.log(buildNativeSpeech().message);
}
