/**
 * Keeps the engine's class code in step with the address and the session (SPEC §4 Class code, §7 visitors/me):
 * - a `?groupCode=` in the address (a magic link) is sent to the engine as 'classCode.fromLink', for a visitor who
 *   is not signed in; the engine verifies it, stores or clears it, toasts, and removes it from the address;
 * - while a code is stored, the engine's access child hears who reads ('user.features'); with nobody signed in it
 *   checks the code again with GET /visitors/me (its recheck) and keeps, clears or marks it.
 * Rendered once, outside the routes, so it also runs on the reader's addresses. Without a code it does not load
 * the engine at all (the catalog's entry chunk stays without it).
 */
import { useEffect, useRef } from 'react';
import { Redirect, useSearch } from 'wouter';
import { useCurrentUser } from '../auth/session';
import { sendToEngineChild, useClassCode } from './classCodeState';
import { rootTarget } from './classroom';

export function ClassCodeSync() {
  const search = useSearch();
  const linked = new URLSearchParams(search).get('groupCode');
  const { data: user, isPending: userPending } = useCurrentUser();
  const classCode = useClassCode();

  const sentLink = useRef<string | null>(null);
  useEffect(() => {
    if (!linked || userPending || user) return;
    if (sentLink.current === linked) return;
    sentLink.current = linked;
    void sendToEngineChild('classCode', { type: 'classCode.fromLink', code: linked });
  }, [linked, user, userPending]);

  const hasCode = classCode.code !== null;
  const features = user ? user.features.join(',') : null;
  useEffect(() => {
    if (!hasCode || userPending) return;
    void sendToEngineChild('access', { type: 'user.features', features: features === null ? null : features ? features.split(',') : [] });
  }, [hasCode, userPending, features]);

  return null;
}

/** '/': the Classroom Library when a class code is set or arrives in the link, else the Free Library (SPEC §2). */
export function RootRedirect() {
  const search = useSearch();
  const classCode = useClassCode();
  return <Redirect to={rootTarget(classCode.code, search)} replace />;
}
