/**
 * The class code a request carries (X-Group-Code): checked against the accounts' records, with wrong guesses counted
 * against the rate limits.
 */
import type { Context } from 'hono';
import type { Auth } from '../auth/auth';
import { clientIp, minutes, tooManyRequests, type Limiters } from '../auth/limits';
import type { Database } from '../db/client';
import { CLASS_CODE_RE, resolveClassCode } from '../accounts/service';
import type { ContentType } from '../../src/domain/schemas';

/** The header that carries a class code (src/api/client.ts sends it). */
export const GROUP_CODE_HEADER = 'X-Group-Code';
export const INVALID_CLASS_CODE = 'Invalid Class Code';

export interface GroupCodeDeps {
  auth: Auth;
  database: Database;
  limiters: Limiters;
}

export type GroupCodeCheck =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'valid'; code: string; teacherId: string; features: ContentType[] };

/**
 * Check the class code in the X-Group-Code header. Wrong guesses count against the client id and the IP
 * address; over either budget every check answers 429 (also for a right code, so a guesser learns nothing).
 * The gates (./index.ts), private uploads and the users API all verify codes through this.
 */
export async function checkGroupCode({ auth, database, limiters }: GroupCodeDeps, c: Context): Promise<GroupCodeCheck> {
  const raw = c.req.header(GROUP_CODE_HEADER)?.trim();
  if (!raw) return { kind: 'none' };
  const ip = clientIp(c, auth.settings.trustProxy);
  const clientId = c.req.header('x-client-id') || null;
  const wait = Math.max(
    ...(await Promise.all([
      limiters.classCodeFailuresPerIp.blockedFor(ip),
      clientId ? limiters.classCodeFailuresPerClient.blockedFor(clientId) : 0,
    ])),
  );
  if (wait > 0) throw tooManyRequests(`Too many wrong class codes. Try again in ${minutes(wait)}.`, wait);
  const resolved = CLASS_CODE_RE.test(raw) ? await resolveClassCode(database.db, raw) : null;
  if (!resolved) {
    await Promise.all([limiters.classCodeFailuresPerIp.hit(ip), clientId ? limiters.classCodeFailuresPerClient.hit(clientId) : undefined]);
    return { kind: 'invalid' };
  }
  return { kind: 'valid', code: raw.toUpperCase(), ...resolved };
}
