/**
 * `npm run admin -- events summary [--days 7]`: counts of the tracked events of the last days, by event and by
 * title (server/analytics/service.ts). A database command: while a server holds DATA_DIR it runs on the server's
 * admin socket, like the account commands (server/users/adminCommands.ts).
 */
import { AdminError, type AdminCommand } from '../cli/command';
import { withDatabase } from '../users/adminCommands';
import { ANALYTICS_RETENTION_DAYS, summarizeEvents, type EventsSummary } from './service';

/** The period `events summary` counts by default, in days. @default 7 */
export const SUMMARY_DEFAULT_DAYS = 7;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

export function formatSummary(summary: EventsSummary): string[] {
  const period = `the last ${summary.days} day${summary.days === 1 ? '' : 's'}`;
  if (summary.total === 0) return [`No events in ${period}.`];
  const lines = [`Events in ${period}: ${summary.total} events, since ${summary.since.toISOString()}.`, '', 'By event:'];
  lines.push(...table([['EVENT', 'COUNT'], ...summary.byEvent.map((r) => [r.name, String(r.count)])]).map((l) => `  ${l}`));
  lines.push('', 'By title:');
  if (summary.byTitle.length === 0) lines.push('  (no event named a title)');
  else lines.push(...table([['TITLE', 'COUNT'], ...summary.byTitle.map((r) => [`${r.title} (${r.slug})`, String(r.count)])]).map((l) => `  ${l}`));
  return lines;
}

const eventsSummary: AdminCommand = {
  summary: 'count the tracked events of the last days, by event and by title',
  usage: '[--days 7]',
  details: [`--days N  how many days back to count (default ${SUMMARY_DEFAULT_DAYS}; events are kept ${ANALYTICS_RETENTION_DAYS} days)`],
  options: { days: { type: 'string' } },
  async run({ values }, io) {
    const raw = values.days === undefined ? String(SUMMARY_DEFAULT_DAYS) : String(values.days);
    if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1) throw new AdminError(`--days takes a whole number of days (1 or more), not '${raw}'.`);
    const summary = await withDatabase(io, (database) => summarizeEvents(database.db, Number(raw)));
    for (const line of formatSummary(summary)) io.out(line);
    return 0;
  },
};

/** The analytics command group, merged into COMMANDS in server/admin/commands.ts. */
export const ANALYTICS_COMMANDS: Record<string, Record<string, AdminCommand>> = {
  events: { summary: eventsSummary },
};
