import type { Page } from '@playwright/test';

/**
 * Serve the app's pages without their primed answers (server/http/page.ts), so the page asks the API for
 * everything, as it does after the first moments: the tests that answer API requests themselves (a failure, a
 * slow passage, a gated answer) use this, and their answers reach the reader.
 */
export async function withoutPrimedAnswers(page: Page): Promise<void> {
  await page.route(
    (url) => !/^\/(api|assets|media|audio)\//.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script type="application\/json" id="lectern-primed">[\s\S]*?<\/script>/, '');
      const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !/^(content-encoding|content-length|etag)$/i.test(name)));
      await route.fulfill({ status: response.status(), headers, body });
    },
  );
}
