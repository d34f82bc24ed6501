/**
 * The reader's bindings to the page: the session's lifetime, keyboard paging and toolbar activity. Each effect
 * only forwards DOM facts to the engine as events, and returns its cleanup.
 */
import { useEffect } from 'react';
import type { ReaderEngineChildEvent, ReaderEngineEvent } from '../../../engine/createReaderEngine';
import { useChildSend, useEngineSend } from '../../engine/useEngine';
import { useLatest } from '../../hooks/useLatest';
import { useCurrentUser } from '../auth/session';

let mounted = 0;

/**
 * Close the reading session when the last reader view goes away (leaving the reader), but not when one reader
 * view replaces another (entry → reader, React's development double mount): the close waits a task.
 */
export function useReaderLifetime(): void {
  const send = useEngineSend();
  useEffect(() => {
    mounted++;
    return () => {
      mounted--;
      window.setTimeout(() => {
        if (mounted === 0) send({ type: 'reader.close' });
      }, 0);
    };
  }, [send]);
}

/**
 * Tell the engine what the address asks for whenever `key` (the address) changes: an entry or an address without a
 * version opens the reader (the root); an address is synced by the session, which pages within the title it shows or
 * has the system open another.
 */
export function useAddressSync(key: string, event: () => ReaderEngineEvent | Extract<ReaderEngineChildEvent<'session'>, { type: 'reader.sync' }>): void {
  const send = useEngineSend();
  const sendSession = useChildSend('session');
  const latest = useLatest(event);
  useEffect(() => {
    const next = latest.current();
    if (next.type === 'reader.sync') sendSession(next);
    else send(next);
    // `key` names what the event says; the event itself is read fresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, send, sendSession]);
}

/** Targets where arrow keys belong to the control, not to paging (data-own-arrows: word mode's passage text). */
const OWN_ARROWS =
  '[data-own-arrows], input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"], [role="listbox"], [role="menu"], [role="menuitem"], [role="menuitemradio"], [role="option"], [role="slider"], [role="radiogroup"], [role="radio"], [role="tablist"], [role="dialog"]';

/**
 * ArrowLeft pages back and ArrowRight forward. Not when focus is in a field, a menu or a dialog, and not with a
 * modifier. Right-to-left text does not swap them: the keys mean previous and next in every column.
 */
export function useArrowKeyPaging(onPrevious: () => void, onNext: () => void, enabled: boolean): void {
  const handlers = useLatest({ onPrevious, onNext });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(OWN_ARROWS)) return;
      event.preventDefault();
      if (event.key === 'ArrowLeft') handlers.current.onPrevious();
      else handlers.current.onNext();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, handlers]);
}

/** Least time between two 'toolbar.activity' events. @default 400 */
export const TOOLBAR_ACTIVITY_THROTTLE_MS = 400;

/** Mouse, key, scroll, touch and click activity keep the toolbar shown (SPEC §2, §4 Toolbar auto-hide). */
export function useToolbarActivity(): void {
  const send = useChildSend('toolbar');
  useEffect(() => {
    let last = -Infinity;
    const onActivity = () => {
      const now = performance.now();
      if (now - last < TOOLBAR_ACTIVITY_THROTTLE_MS) return;
      last = now;
      send({ type: 'toolbar.activity' });
    };
    const events = ['mousemove', 'keydown', 'scroll', 'touchstart', 'click'] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    send({ type: 'toolbar.activity' });
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity);
    };
  }, [send]);
}

/**
 * Tell the engine's access child whose features gate what this screen shows (SPEC §4 Class code: features come
 * from the signed-in user, else from the visitor check): the signed-in user's plan, or null once we know nobody is
 * signed in. Nothing is sent while the first check runs, so access keeps what it knew.
 */
export function useUserFeatures(): void {
  const send = useChildSend('access');
  const { data: user } = useCurrentUser();
  const key = user === undefined ? undefined : user === null ? null : [...user.features].sort().join(',');
  useEffect(() => {
    if (key === undefined) return;
    send({ type: 'user.features', features: key === null ? null : key ? key.split(',') : [] });
  }, [send, key]);
}
