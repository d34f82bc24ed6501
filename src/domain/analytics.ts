import { paths } from './routes';

/** The tracked events of SPEC §4, spelled as the spec spells them. */
export const TRACKED_EVENTS = [
  'Changed Audio Settings',
  'Closed Audio Player',
  'Copied Magic Link',
  'Opened Audio Player',
  'Paused Audio',
  'Resumed Audio',
  'Signed In',
  'Signed Out',
  'Viewed Catalog',
  'Viewed Novel',
  'Viewed Passage',
  'Visited URL',
] as const;
export type TrackedEvent = (typeof TRACKED_EVENTS)[number];

/** The largest body `POST /api/v1/events` reads (bytes); a larger one is 413. @default 10240 */
export const ANALYTICS_MAX_BODY_BYTES = 10 * 1024;
/** The most events one batch may carry. @default 50 */
export const ANALYTICS_MAX_BATCH = 50;
/** The events that end a stretch of listening, and so carry `seconds` (audio heard). */
export const LISTENING_EVENTS: readonly TrackedEvent[] = ['Paused Audio', 'Closed Audio Player'];
/** The longest stretch of listening one event may report, in seconds (a day). */
export const MAX_LISTENING_SECONDS = 24 * 60 * 60;

/** One tracking call: the event and the properties the analytics port gets with it. */
export interface TrackingCall {
  event: TrackedEvent;
  properties?: Record<string, unknown>;
}

/** First path segments of fixed pages with two segments, which are not a publication's '/{slug}/{version}'. */
const NOT_PUBLICATIONS = new Set(['qr', 'accept-invitation', 'listen', 'teaser']);

/**
 * The page views a new address (its path, without the query) is tracked with (SPEC §4): 'Visited URL' for every
 * address (the address itself is not sent: the server stores no free text); 'Viewed Catalog' for the Free Library
 * and the Classroom Library, the two catalogs; 'Viewed Novel' with the slug for a publication's page,
 * '/{slug}/{version}'. A reader address ('Viewed Passage') is tracked by the engine, which knows the edition.
 */
export function pageViewsOf(path: string): TrackingCall[] {
  const calls: TrackingCall[] = [{ event: 'Visited URL' }];
  const clean = path.replace(/\/+$/, '') || '/';
  if (clean === paths.catalog || clean === paths.classroomCatalog) calls.push({ event: 'Viewed Catalog' });
  const publication = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)\/v\d+$/i.exec(clean);
  if (publication && !NOT_PUBLICATIONS.has(publication[1]!.toLowerCase())) {
    calls.push({ event: 'Viewed Novel', properties: { slug: publication[1]!.toLowerCase() } });
  }
  return calls;
}
