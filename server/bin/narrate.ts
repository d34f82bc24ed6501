/**
 * `npm run narrate`: narrate every voiced passage of the library now, in parallel on every core, with a progress
 * bar and a summary. Passages already narrated (same text, same voice) are skipped, and audio already in
 * DATA_DIR/audio is reused, so running it again does nothing. `npm start` does the same work in the background;
 * this is for doing it up front (before a deploy, or to measure it).
 */
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { exitDataDirLocked, exitIfServerHoldsDatabase, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { editions } from '../db/schema';
import { ContentStore } from '../content/store';
import { NarrationService, narrationSettings } from '../narration/queue';
import { audioStoreFromEnv, audioStoreLocation } from '../narration/audioStore';
import { UNVOICED_LANGUAGES } from '../narration/voices';

const config = loadConfig();

exitIfServerHoldsDatabase(config, 'npm start also narrates the library in the background while it runs');

const cores = os.availableParallelism();
const fromEnv = narrationSettings(process.env, true);
const concurrency = process.env.NARRATION_CONCURRENCY ? Math.max(1, fromEnv.concurrency) : cores;
const audio = await audioStoreFromEnv(process.env, path.join(config.dataDir, 'audio'));
const audioAt = audioStoreLocation(audio);

const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, lockPurpose: 'narrate' }).catch((error) =>
  exitDataDirLocked(error, 'npm start also narrates the library in the background while it runs'),
);
const service = new NarrationService({
  database,
  store: new ContentStore(database),
  audio,
  logger: pino({ level: 'warn' }),
  settings: { concurrency, waitMs: 0, priorityWorkers: 1, englishVoice: fromEnv.englishVoice },
});

try {
  await service.prepare();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const queued = await service.scan();
  console.log(
    `Narrating ${queued} passage(s) into ${audioAt} with ${concurrency} worker(s) on ${cores} core(s)` +
      (UNVOICED_LANGUAGES.length ? ` (unvoiced: ${UNVOICED_LANGUAGES.join(', ')})` : ''),
  );
  if (queued > 0) {
    const tty = process.stdout.isTTY;
    const bar = new cliProgress.SingleBar(
      { format: 'Narrating [{bar}] {value}/{total} passages  {audio} of audio  {eta_formatted} left', hideCursor: true, noTTYOutput: !tty, notTTYSchedule: 2000 },
      cliProgress.Presets.shades_classic,
    );
    bar.start(queued, 0, { audio: '0 s' });
    const tick = setInterval(() => bar.update(queued - service.pending, { audio: `${Math.round(service.stats.audioMs / 1000)} s` }), 250);
    await service.idle();
    clearInterval(tick);
    bar.update(queued, { audio: `${Math.round(service.stats.audioMs / 1000)} s` });
    bar.stop();
  }
  const cpu = process.cpuUsage(cpu0);
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = (cpu.user + cpu.system) / 1e6;
  const { stats } = service;
  const audioMin = stats.audioMs / 60_000;
  const [library] = await database.db
    .select({ seconds: sql<number>`coalesce(sum(${editions.audioTotalLength}), 0)`, editions: sql<number>`count(*) filter (where ${editions.audioTotalLength} > 0)` })
    .from(editions);
  console.log(
    `\nNarrated ${stats.persisted} passage(s) in ${wallS.toFixed(1)} s:\n` +
      `  synthesized:  ${stats.synthesized}  (${(stats.audioMs / 1000).toFixed(1)} s of audio, ${(stats.mp3Bytes / 1024).toFixed(0)} KiB of MP3)\n` +
      `  reused:       ${stats.reused}  (already in ${audioAt})\n` +
      `  failed:       ${stats.failed}\n` +
      (stats.synthesized
        ? `  CPU:          ${cpuS.toFixed(1)} s, ${(cpuS / audioMin).toFixed(1)} CPU s per minute of audio\n` +
          `  bitrate:      ${((stats.mp3Bytes * 8) / stats.audioMs).toFixed(1)} kbps\n`
        : '') +
      `  library:      ${(Number(library.seconds) / 60).toFixed(1)} min of audio in ${library.editions} edition(s)`,
  );
  if (stats.failed) process.exitCode = 1;
} finally {
  await service.stop();
  await database.close();
}
