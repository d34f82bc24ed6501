// `npm start`: compile the server with esbuild when its sources changed (server/serverBuild.mjs), then run the
// compiled server/bin/start.ts. No TypeScript is compiled at run time. `node --import tsx server/bin/start.ts`
// still runs the same server from source.
import { buildNativeSpeech } from '../narration/native/build.mjs';
import { buildServerIfStale } from '../serverBuild.mjs';

process.setSourceMapsEnabled(true);
// The native narration helper, where the system can build it (a quick check when it is up to date).
const nativeSpeech = buildNativeSpeech();
if (!nativeSpeech.upToDate) console.error(nativeSpeech.message);
await import(await buildServerIfStale());
