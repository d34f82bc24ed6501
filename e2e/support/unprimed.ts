import type { Page } from '@playwright/test';

/**
 * Serve the app's pages without their primed answers and first screen (server/http/page.ts), so the page asks the API for
 * everything, as it does after the first moments: the tests that answer API requests themselves (a failure, a
 * slow passage, a gated answer) use this, and their answers reach the reader.
 */
export async function withoutPrimedAnswers(page: Page): Promise<void> {
  await page.route(
    (url) => !/^\/(api|assets|media|audio)\//.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      const body = (await response.text())
        .replace(/<script type="application\/json" id="lectern-primed">[\s\S]*?<\/script>/, '')
        // The first screen is drawn from those answers: without them the page starts from the app alone.
        .replace(/<div id="lectern-first-screen"[\s\S]*?(?=<div id="root">)/, '');
      const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !/^(content-encoding|content-length|etag)$/i.test(name)));
      await route.fulfill({ status: response.status(), headers, body });
    },
  );
}
