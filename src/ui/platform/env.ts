/** What the build knows about itself, for the /debug page. Values of analytics keys are never shown. */

export interface BuildInfo {
  version: string;
  commit: string;
  builtAt: string;
}

export const buildInfo: BuildInfo = __BUILD_INFO__;

/** The runtime environment, from Vite's mode. */
export const runtimeEnvironment: string = import.meta.env.MODE;

const ANALYTICS_PREFIX = 'VITE_ANALYTICS_';

/** Third-party analytics integrations the app could use. None are set up: analytics is first-party (src/ui/platform/analytics.ts). */
export const KNOWN_ANALYTICS: readonly { name: string; key: string }[] = [
  { name: 'Product analytics', key: 'VITE_ANALYTICS_WRITE_KEY' },
  { name: 'Page-view analytics', key: 'VITE_ANALYTICS_PAGEVIEWS_ID' },
];

export interface AnalyticsFlag {
  name: string;
  key: string;
  configured: boolean;
}

/** Each known analytics integration plus any other VITE_ANALYTICS_* variable, with whether it has a value. */
export function analyticsFlags(env: Record<string, unknown> = import.meta.env): AnalyticsFlag[] {
  const flags: AnalyticsFlag[] = KNOWN_ANALYTICS.map(({ name, key }) => ({
    name,
    key,
    configured: typeof env[key] === 'string' && (env[key] as string).trim() !== '',
  }));
  for (const key of Object.keys(env).sort()) {
    if (!key.startsWith(ANALYTICS_PREFIX) || flags.some((f) => f.key === key)) continue;
    const value = env[key];
    flags.push({ name: key.slice(ANALYTICS_PREFIX.length), key, configured: typeof value === 'string' && value.trim() !== '' });
  }
  return flags;
}
