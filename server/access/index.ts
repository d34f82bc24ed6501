/**
 * Who is asking, resolved once per request, and the server side of the content gates. The rules
 * themselves live in src/domain/access.ts; this module only works out the actor and turns a decision into an
 * answer:
 *  - signed in: the user's features (the union of their organizations' valid licenses); a class code the request
 *    also carries is ignored;
 *  - no session, a valid X-Group-Code: the teacher's reading features (TEACHER_ONLY_FEATURES removed), but only
 *    on the titles that teacher ASSIGNED (and on the teacher's own uploads); on any other title, none;
 *  - no session, an X-Group-Code that does not resolve: no features, and `invalidGroupCode` (the class-code panel);
 *  - otherwise anonymous: no features.
 * Free content never gets here: the routes decide free-ness first (`isFreeFor`), so an anonymous read of a free
 * passage costs no database round trip.
 */
import type { Context } from 'hono';
import {
  classCodeFeatures,
  GROUP_CODE_REQUIRED_MESSAGE,
  LICENSE_REQUIRED_MESSAGE,
  PREMIUM_CONTENT_MESSAGE,
  type AccessActor,
  type AccessDecision,
} from '../../src/domain/access';
import type { ContentType, Passage, UserRole } from '../../src/domain/schemas';
import type { Level } from '../../src/domain/levels';
import type { Accounts } from '../auth';
import { sessionOf } from '../auth/http';
import { checkGroupCode, GROUP_CODE_HEADER } from './groupCode';
import { featuresOf, getRole, titleStatuses } from '../accounts/service';
import { HttpError } from '../kit/errors';

export interface AccessDeps {
  /** Without accounts (a server built without them) everyone is anonymous. */
  accounts?: Accounts;
}

export type RequestActor =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; features: ContentType[] }
  | { kind: 'student'; teacherId: string; features: ContentType[]; assigned: ReadonlySet<number> }
  | { kind: 'invalidGroupCode' };

/** Answers that depend on who asks: never stored by a shared cache, never revalidated against a shared ETag. */
export const ACTOR_CACHE_CONTROL = 'private, no-store';
/** The request headers an actor-dependent answer varies with. */
export const ACTOR_VARY = 'Cookie, X-Group-Code';

const ANONYMOUS: AccessActor = { features: [], invalidGroupCode: false };

const actors = new WeakMap<Request, Promise<RequestActor>>();

/** Whether the request carries anything that could make it someone: a cookie or a class code. */
export function hasCredentials(c: Context): boolean {
  return Boolean(c.req.header('cookie')?.trim() || c.req.header(GROUP_CODE_HEADER)?.trim());
}

async function resolve(deps: AccessDeps, c: Context): Promise<RequestActor> {
  const { accounts } = deps;
  if (!accounts || !hasCredentials(c)) return { kind: 'anonymous' };
  const db = accounts.database.db;
  const session = c.req.header('cookie') ? await sessionOf(accounts.auth, c) : null;
  if (session) return { kind: 'user', userId: session.user.id, features: await featuresOf(db, session.user.id) };
  const check = await checkGroupCode(accounts, c);
  if (check.kind === 'none') return { kind: 'anonymous' };
  if (check.kind === 'invalid') return { kind: 'invalidGroupCode' };
  const assigned = await titleStatuses(db, check.teacherId, 'ASSIGNED');
  return { kind: 'student', teacherId: check.teacherId, features: check.features, assigned: new Set(assigned.map((r) => r.titleId)) };
}

/**
 * The actor of this request, resolved on first use and kept for the rest of it (a class code is checked, and
 * counted against the rate limits, once per request however many gates ask).
 */
export function requestActor(deps: AccessDeps, c: Context): Promise<RequestActor> {
  const key = c.req.raw;
  let actor = actors.get(key);
  if (!actor) {
    actor = resolve(deps, c);
    actors.set(key, actor);
  }
  return actor;
}

/** The signed-in user's role, or null (anyone else). */
export async function roleOf(deps: AccessDeps, actor: RequestActor): Promise<UserRole | null> {
  if (actor.kind !== 'user' || !deps.accounts) return null;
  return getRole(deps.accounts.database.db, actor.userId);
}

/** A title as the gates see it: its id and, for an upload, its owner. */
export interface GatedTitle {
  publicationId: number;
  ownerUserId: string | null;
}

/** The actor's features for one title (src/domain/access.ts AccessActor). */
export function accessActorFor(actor: RequestActor, title: GatedTitle): AccessActor {
  switch (actor.kind) {
    case 'anonymous':
      return ANONYMOUS;
    case 'invalidGroupCode':
      return { features: [], invalidGroupCode: true };
    case 'user':
      return { features: actor.features, invalidGroupCode: false };
    case 'student': {
      const shared = actor.assigned.has(title.publicationId) || (title.ownerUserId !== null && title.ownerUserId === actor.teacherId);
      return { features: classCodeFeatures(actor.features, shared), invalidGroupCode: false };
    }
  }
}

/** An edition as the gates see it (ContentStore's EditionInfo has all of it). */
export interface GatedEdition extends GatedTitle {
  badges: readonly string[];
  language: string;
  level: Level;
}

export type Rule = (publication: { badges: readonly string[] }, edition: { language: string; level: Level }, actor: AccessActor) => AccessDecision;

/** Whether the rule lets everyone through: then the answer does not depend on the actor and may be cached publicly. */
export function isFreeFor(rule: Rule, edition: GatedEdition): boolean {
  return rule(edition, edition, ANONYMOUS) === 'allowed';
}

export interface Gated {
  decision: AccessDecision;
  /** True when the answer depended on who asked (features were needed): send it `private, no-store`. */
  actorDependent: boolean;
  actor: AccessActor;
}

/** Apply a rule of src/domain/access.ts to an edition for this request; the actor is resolved only when needed. */
export async function gate(deps: AccessDeps, c: Context, rule: Rule, edition: GatedEdition): Promise<Gated> {
  if (isFreeFor(rule, edition)) return { decision: 'allowed', actorDependent: false, actor: ANONYMOUS };
  const actor = accessActorFor(await requestActor(deps, c), edition);
  return { decision: rule(edition, edition, actor), actorDependent: true, actor };
}

/** The 403 of a blocked content request: `license_required` or `group_code_required`. */
export function blockedError(decision: Exclude<AccessDecision, 'allowed'>): HttpError {
  return decision === 'groupCodeRequired'
    ? new HttpError(403, [{ code: 'group_code_required', message: GROUP_CODE_REQUIRED_MESSAGE }])
    : new HttpError(403, [{ code: 'license_required', message: LICENSE_REQUIRED_MESSAGE }]);
}

/** Throw the 403 unless the gate allowed the request. */
export function assertAllowed(gated: Gated): void {
  if (gated.decision !== 'allowed') throw blockedError(gated.decision);
}

/** The 403 of a premium publication for someone without LEVELS (SPEC §8: the client goes back to the catalog). */
export function premiumContentError(): HttpError {
  return new HttpError(403, [{ code: 'premium_content', message: PREMIUM_CONTENT_MESSAGE }]);
}

/** Headers of an answer that depended on the actor. */
export function actorHeaders(): Record<string, string> {
  return { 'Cache-Control': ACTOR_CACHE_CONTROL, Vary: ACTOR_VARY };
}

/** A 200 JSON answer that depended on who asked: no ETag, never stored. */
export function sendPrivateJson(c: Context, json: string): Response {
  return c.body(json, 200, { ...actorHeaders(), 'Content-Type': 'application/json; charset=utf-8' });
}

/** A passage without what the gate withholds: no text, image, decoded text or audio (SPEC §3 Passage). */
export function blockedPassage(passage: Passage, decision: Exclude<AccessDecision, 'allowed'>): Passage {
  return {
    ...passage,
    text: '',
    textDecoded: null,
    imageUrl: null,
    imageAlt: null,
    audio: null,
    licenseRequired: decision === 'licenseRequired',
    groupCodeRequired: decision === 'groupCodeRequired',
  };
}
