import type { Page } from '@playwright/test';

/**
 * The app creates its audio elements with `new Audio()` (the reader's player, the listen flow's, a tapped word's),
 * never in the DOM: keep each one on `window.__audios`, so a test can read the real element's state.
 */
export async function watchAudioElements(page: Page) {
  await page.addInitScript(() => {
    const Native = window.Audio;
    const seen: HTMLAudioElement[] = [];
    (window as unknown as { __audios: HTMLAudioElement[] }).__audios = seen;
    window.Audio = function (src?: string) {
      const el = new Native(src);
      seen.push(el);
      return el;
    } as unknown as typeof Audio;
  });
}
