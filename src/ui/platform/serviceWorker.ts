/**
 * How long after the page's load event the service worker is registered. Its install precaches the app shell (~90
 * scripts, styles and the shell page) on a thread of the page's own process, while the browser process fetches
 * them: on a small device that competes with the reader's start-up for the cores (docs/performance.md, tenth
 * session). By then the page has shown its passage and the app has taken over; offline use needs it only later.
 */
export const SERVICE_WORKER_DELAY_MS = 5000;

/**
 * Registers the service worker (src/sw.ts) in a built app SERVICE_WORKER_DELAY_MS after the page's
 * load event and then when the browser is idle, so it never competes with the first screen or the app's start.
 * src/main.tsx loads this module after the page's load event; `npm run dev` has none.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('Service worker not registered', error));
  };
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(register, { timeout: 5000 });
    else register();
  };
  const later = () => setTimeout(whenIdle, SERVICE_WORKER_DELAY_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
