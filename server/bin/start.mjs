// `npm start`: compile the server with esbuild when its sources changed (server/serverBuild.mjs), then run the
// compiled server/bin/start.ts. No TypeScript is compiled at run time. `node --import tsx server/bin/start.ts`
// still runs the same server from source.
import { buildServerIfStale } from '../serverBuild.mjs';

process.setSourceMapsEnabled(true);
await import(await buildServerIfStale());
