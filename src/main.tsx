import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { paths } from './domain/routes';
import { App } from './ui/App';
import { afterStartup } from './ui/platform/idle';
import { loadCatalogScreen } from './ui/router';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');

// The first render as a transition: React renders it in slices of a few milliseconds and yields between them, so the
// page's main thread is never held for the whole first render (Lighthouse's total blocking time, docs/performance.md:
// paired, catalog median score 86.5 -> 90.5 and TBT -20 %). What shows first is unchanged: the server's first screen,
// or the page's own loading states.
const root = createRoot(container);
const render = () =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
// The catalog's screen is a chunk of its own (src/ui/router.tsx): on the addresses that show it, the first render
// waits for it rather than showing a fallback first ('/' goes to the catalog unless a class code is set). A failed
// load renders anyway, and the lazy screen then tries again.
if (location.pathname === paths.catalog || location.pathname === paths.root) void loadCatalogScreen().catch(() => undefined).then(render);
else render();

// The service worker is registered from its own chunk once the page has loaded and its start-up is over (no long
// task for a while, src/ui/platform/idle.ts): the entry carries only this import, and the start-up none of it. A
// page with a first screen runs this entry after its load event (server/http/page.ts asks for the code after the
// first paint), so then it waits only for the quiet.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => afterStartup(() => void import('./ui/platform/serviceWorker').then((m) => m.registerServiceWorker()));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
