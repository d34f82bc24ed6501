// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker, SERVICE_WORKER_DELAY_MS } from '../../src/ui/platform/serviceWorker';

describe('service worker registration (src/ui/platform/serviceWorker.ts)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('registers /sw.js only SERVICE_WORKER_DELAY_MS after the load event, once the browser is idle', () => {
    vi.useFakeTimers();
    vi.stubEnv('PROD', true);
    const register = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
    const idle: Array<() => void> = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    expect(document.readyState).toBe('complete');

    registerServiceWorker();
    vi.advanceTimersByTime(SERVICE_WORKER_DELAY_MS - 1);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(idle).toHaveLength(1);
    expect(register).not.toHaveBeenCalled();
    idle[0]();
    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers nothing outside a built app', () => {
    vi.useFakeTimers();
    vi.stubEnv('PROD', false);
    const register = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
    registerServiceWorker();
    vi.advanceTimersByTime(SERVICE_WORKER_DELAY_MS * 3);
    expect(register).not.toHaveBeenCalled();
  });
});
