/**
 * The server's first screen of a reader address (server/http/page.ts, src/render/firstScreenHtml.ts): the
 * passage as static HTML that shows while the app's code loads. The app renders beside it, hidden (styles.css),
 * and removes it as soon as its own reader shows something other than a skeleton, or any other screen shows.
 */
import { useLayoutEffect } from 'react';
import { FIRST_SCREEN_ID } from '../../domain/primed';

export function releaseFirstScreen(): void {
  document.getElementById(FIRST_SCREEN_ID)?.remove();
}

/** Removes the first screen once `ready` is true, before the browser paints the app's own screen. */
export function useReleaseFirstScreen(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) releaseFirstScreen();
  }, [ready]);
}

/** For screens that are never a reader's first moments: mounting it removes the first screen. */
export function ReleaseFirstScreen(): null {
  useReleaseFirstScreen(true);
  return null;
}
