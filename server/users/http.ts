/**
 * The users API (SPEC §7): /users/me, /users/me/role, /users/me/group-code, /users/me/class-activity, /features/me,
 * /users/titles, /users/titles/{titleId}/visibility and /visitors/me. Answers are never cached
 * (Cache-Control: no-store).
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  ClassActivitySchema,
  CurrentUserSchema,
  TitleIdParamSchema,
  TitleVisibilityBodySchema,
  UpdateRoleBodySchema,
  type CurrentUser,
  type PublicationSummary,
  type UserTitle,
  type Visitor,
} from '../../src/domain/schemas';
import type { Database } from '../db/client';
import type { ContentStore } from '../content/store';
import type { Auth } from '../auth/auth';
import { requireSession, sessionOf } from '../auth/http';
import type { Limiters } from '../auth/limits';
import { HttpError, badRequest, fromZod, notFound } from '../kit/errors';
import { jsonBody, param } from '../kit/validate';
import {
  classCodeFor,
  classTitleIds,
  featuresOf,
  getRole,
  memberships,
  rotateClassCode,
  setRole,
  setTitleStatus,
  titleStatuses,
} from '../accounts/service';
import { classActivity } from './classActivity';
import { checkGroupCode, INVALID_CLASS_CODE } from '../access/groupCode';
import { NO_STORE } from '../kit/headers';

export interface UsersDeps {
  auth: Auth;
  database: Database;
  store: ContentStore;
  limiters: Limiters;
}

function forbidden(message: string, code = 'forbidden'): HttpError {
  return new HttpError(403, [{ code, message }]);
}

export function splitName(name: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
}

async function catalogById(store: ContentStore): Promise<Map<number, PublicationSummary>> {
  const list = await store.list({ sort: 'title_a_z', page: 1, pageSize: Number.MAX_SAFE_INTEGER });
  return new Map(list.items.map((item) => [item.id, item]));
}

async function userTitles(store: ContentStore, rows: { id: number; titleId: number; status: 'ASSIGNED' | 'BLOCKED' }[]): Promise<UserTitle[]> {
  const byId = await catalogById(store);
  return rows.flatMap((row) => {
    const title = byId.get(row.titleId);
    return title ? [{ ...row, title }] : [];
  });
}

export function registerUsersApi(api: Hono<any>, deps: UsersDeps): void {
  const { auth, database, store } = deps;
  const db = database.db;

  async function currentUser(c: Context): Promise<CurrentUser> {
    const { user } = await requireSession(auth, c);
    const features = await featuresOf(db, user.id);
    const body: CurrentUser = {
      id: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      name: user.name,
      ...splitName(user.name),
      role: await getRole(db, user.id),
      features,
      groupCode: await classCodeFor(db, user.id, features),
      organizationMemberships: await memberships(db, user.id),
    };
    return CurrentUserSchema.parse(body);
  }

  api.get('/users/me', async (c) => c.json(await currentUser(c), 200, NO_STORE));

  api.patch('/users/me/role', async (c) => {
    const { user } = await requireSession(auth, c);
    const { role } = await jsonBody(c, UpdateRoleBodySchema, "{role: 'INDIVIDUAL' | 'TEACHER'}");
    await setRole(db, user.id, role);
    return c.json(await currentUser(c), 200, NO_STORE);
  });

  api.post('/users/me/group-code', async (c) => {
    const { user } = await requireSession(auth, c);
    const groupCode = await rotateClassCode(db, user.id);
    if (!groupCode) throw forbidden('Class codes need a teacher account with a school license that includes GROUP_CODES.');
    return c.json({ groupCode }, 200, NO_STORE);
  });

  api.get('/features/me', async (c) => {
    const { user } = await requireSession(auth, c);
    return c.json({ features: await featuresOf(db, user.id) }, 200, NO_STORE);
  });

  api.get('/visitors/me', async (c) => {
    const check = await checkGroupCode(deps, c);
    const body: Visitor =
      check.kind === 'valid'
        ? { groupCodeValid: true, features: check.features, titleIds: await classTitleIds(db, check.teacherId) }
        : { groupCodeValid: false, features: [], titleIds: [] };
    return c.json(body, 200, NO_STORE);
  });

  api.get('/users/titles', async (c) => {
    const session = await sessionOf(auth, c);
    if (session) {
      return c.json({ items: await userTitles(store, await titleStatuses(db, session.user.id)) }, 200, NO_STORE);
    }
    const check = await checkGroupCode(deps, c);
    if (check.kind === 'none') throw new HttpError(401, [{ code: 'unauthorized', message: 'Sign in or enter a class code.' }]);
    if (check.kind === 'invalid') throw forbidden(INVALID_CLASS_CODE, 'invalid_group_code');
    return c.json({ items: await userTitles(store, await titleStatuses(db, check.teacherId, 'ASSIGNED')) }, 200, NO_STORE);
  });

  /** The teacher's class activity, counts only (server/users/classActivity.ts). */
  api.get('/users/me/class-activity', async (c) => {
    const { user } = await requireSession(auth, c);
    if ((await getRole(db, user.id)) !== 'TEACHER') throw forbidden('Only teachers can see class activity.');
    return c.json(ClassActivitySchema.parse(await classActivity(db, user.id)), 200, NO_STORE);
  });

  api.patch('/users/titles/:titleId/visibility', async (c) => {
    const { user } = await requireSession(auth, c);
    if ((await getRole(db, user.id)) !== 'TEACHER') throw forbidden('Only teachers can change title visibility.');
    const titleId = param(TitleIdParamSchema, c.req.param('titleId'));
    const { status } = await jsonBody(c, TitleVisibilityBodySchema, "{status: 'ASSIGNED' | 'BLOCKED'}");
    const title = (await catalogById(store)).get(titleId);
    if (!title) throw notFound('Publication not found');
    const row = await setTitleStatus(db, user.id, titleId, status);
    return c.json({ ...row, title } satisfies UserTitle, 200, NO_STORE);
  });
}
