/**
 * Keeps the engine's class code in step with the address and the server (SPEC §4 Class code, §7 visitors/me):
 * - a `?groupCode=` in the address (a magic link) is sent to the engine as 'classCode.fromLink', for a visitor who
 *   is not signed in; the engine verifies it, stores or clears it, toasts, and removes it from the address;
 * - a stored code is checked with GET /visitors/me when there is no user: groupCodeValid false clears it
 *   ('Invalid Class Code'), an API error shows its message and marks the code with '!' in the menu.
 * Rendered once, outside the routes, so it also runs on the reader's addresses.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Redirect, useSearch } from 'wouter';
import { queries } from '../../platform/api';
import { useCurrentUser } from '../auth/session';
import { sendToEngine, useClassCode } from './classCodeState';
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
    void sendToEngine({ type: 'classCode.fromLink', code: linked });
  }, [linked, user, userPending]);

  const code = classCode.code;
  const check = useQuery({
    ...queries.visitor(code ?? ''),
    enabled: code !== null && classCode.isReady && !classCode.isVerifying && !userPending && user === null,
  });
  const { data, error } = check;
  useEffect(() => {
    if (!code) return;
    if (data) void sendToEngine({ type: data.groupCodeValid ? 'classCode.checkPassed' : 'classCode.invalidated' });
    else if (error) void sendToEngine({ type: 'classCode.checkFailed', message: error.message });
  }, [code, data, error]);

  return null;
}

/** '/': the Classroom Library when a class code is set or arrives in the link, else the Free Library (SPEC §2). */
export function RootRedirect() {
  const search = useSearch();
  const classCode = useClassCode();
  return <Redirect to={rootTarget(classCode.code, search)} replace />;
}
