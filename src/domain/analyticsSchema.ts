/**
 * The body of `POST /api/v1/events` (first-party analytics): a batch of SPEC §4 tracked events from one
 * browser. Shared by the server, which validates with it, and the browser's adapter (src/adapters/analytics.ts),
 * which builds it (as a type only, so zod stays out of the catalog's entry JS). Strict everywhere: no key beyond
 * these, no free text (a publication is its slug, an edition its id), no user id, no address.
 */
import { z } from 'zod';
import { ANALYTICS_MAX_BATCH, LISTENING_EVENTS, MAX_LISTENING_SECONDS, TRACKED_EVENTS } from './analytics';
import { CLASS_CODE_LENGTH } from './constants';
import { SlugSchema } from './schemas';

export { ANALYTICS_MAX_BATCH, ANALYTICS_MAX_BODY_BYTES, LISTENING_EVENTS, MAX_LISTENING_SECONDS } from './analytics';

export const AnalyticsEventSchema = z
  .strictObject({
    name: z.enum(TRACKED_EVENTS, { error: `name must be one of ${TRACKED_EVENTS.join(', ')}` }),
    /** When it happened, by the browser's clock (ISO 8601). */
    at: z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 date and time' }),
    /** The publication's slug. */
    publication: z.optional(SlugSchema),
    editionId: z.optional(z.int().check(z.positive(), z.lte(2 ** 31 - 1))),
    position: z.optional(z.int().check(z.positive(), z.lte(1_000_000))),
    /** Seconds of audio heard, on 'Paused Audio' and 'Closed Audio Player' only. */
    seconds: z.optional(z.int().check(z.gte(0), z.lte(MAX_LISTENING_SECONDS))),
  })
  .check(
    z.refine((e) => e.seconds === undefined || LISTENING_EVENTS.includes(e.name), {
      error: `seconds belongs only to ${LISTENING_EVENTS.join(' and ')}`,
      path: ['seconds'],
    }),
    // The same rule in JSON Schema, for the OpenAPI document (server/http/openapi.ts): a refinement has no JSON form.
    z.meta({
      description: `seconds belongs only to ${LISTENING_EVENTS.join(' and ')}.`,
      if: { required: ['seconds'] },
      then: { properties: { name: { enum: [...LISTENING_EVENTS] } } },
    }),
  );

export const AnalyticsBatchSchema = z.strictObject({
  /** The browser's random analytics id (a UUID it made and keeps), not a user id. */
  clientId: z.uuid({ error: 'clientId must be a UUID' }),
  /**
   * The class code, for `sendBeacon`, which cannot send the X-Group-Code header (the header wins when both come).
   */
  groupCode: z.optional(
    z.string().check(z.regex(new RegExp(`^[A-Za-z0-9]{${CLASS_CODE_LENGTH}}$`), { error: `groupCode must be ${CLASS_CODE_LENGTH} letters or digits` })),
  ),
  events: z
    .array(AnalyticsEventSchema)
    .check(
      z.minLength(1, { error: 'events must hold at least one event' }),
      z.maxLength(ANALYTICS_MAX_BATCH, { error: `events may hold at most ${ANALYTICS_MAX_BATCH} events` }),
    ),
});

export type AnalyticsEventBody = z.input<typeof AnalyticsEventSchema>;
export type AnalyticsBatchBody = z.input<typeof AnalyticsBatchSchema>;
