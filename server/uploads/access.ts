/**
 * Who may read a private publication (an upload): its owner, signed in, and anyone sending the owner's class code
 * (X-Group-Code). Everyone else gets the same 404 as for something that does not exist, so private slugs, edition
 * ids and passage ids reveal nothing. Mounted on the /api/v1 router before the content routes; public content
 * passes through untouched. Answers about private content are never stored by shared caches.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import type { ContentStore } from '../content/store';
import type { Accounts } from '../auth';
import { sessionOf } from '../auth/http';
import { checkGroupCode } from '../access/groupCode';
import { notFound } from '../kit/errors';

export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

type Ref = { ref: { slug: string } | { editionId: number } | { passageId: number }; message: string };

/** Which private-capable resource a request under /api/v1 names, if any. */
export function resourceOf(path: string, editionIdParam: string | undefined): Ref | null {
  const pub = /^\/publications\/([^/]+)(?:\/|$)/.exec(path);
  if (pub) {
    let slug: string;
    try {
      slug = decodeURIComponent(pub[1]);
    } catch {
      return null;
    }
    return { ref: { slug }, message: 'Publication not found' };
  }
  const byId = /^\/passages\/(\d{1,9})\//.exec(path);
  if (byId) return { ref: { passageId: Number(byId[1]) }, message: PASSAGE_NOT_FOUND };
  if (/^\/passages(?:\/audioOnly)?\/?$/.test(path)) {
    const editionId = editionIdParam;
    if (editionId && /^\d{1,9}$/.test(editionId)) return { ref: { editionId: Number(editionId) }, message: 'Edition not found' };
  }
  return null;
}

/** May this request read content owned by `ownerUserId`? */
export async function canReadPrivate(deps: { accounts?: Accounts }, c: Context, ownerUserId: string): Promise<boolean> {
  const { accounts } = deps;
  if (!accounts) return false;
  const session = await sessionOf(accounts.auth, c);
  if (session?.user.id === ownerUserId) return true;
  const check = await checkGroupCode(accounts, c);
  return check.kind === 'valid' && check.teacherId === ownerUserId;
}

export function privateContentGate(deps: { accounts?: Accounts; store: ContentStore; apiBase: string }): MiddlewareHandler {
  return async (c, next) => {
    const path = c.req.path.slice(deps.apiBase.length);
    const resource = /^\/(?:publications|passages)(?:\/|$)/.test(path) ? resourceOf(path, c.req.query('editionId')) : null;
    const owner = resource ? await deps.store.privateOwner(resource.ref) : null;
    if (!owner) return next();
    if (!(await canReadPrivate(deps, c, owner))) throw notFound(resource!.message);
    await next();
    c.res.headers.set('Cache-Control', PRIVATE_CACHE_CONTROL);
    c.res.headers.set('Vary', 'Cookie, X-Group-Code');
  };
}
