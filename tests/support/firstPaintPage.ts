/**
 * A stand-in page for the first-paint loader (src/render/firstPaintLoader.ts): the browser globals it uses, with
 * its JSON element, a record of what it appends to the head, its task queue, its frames and its paint observers.
 * The unit test passes `globals` to `startFirstPaintLoader`; the server's page test runs the built text with them
 * as the global object.
 */
import type { LoaderGlobals } from '../../src/render/firstPaintLoader';
import { APP_CODE_ELEMENT_ID } from '../../src/render/firstPaintLoader';

/** An element the loader created and appended, with the properties it set. */
export interface Appended {
  tag: string;
  type?: string;
  crossOrigin?: string;
  rel?: string;
  src?: string;
  href?: string;
}

type PaintCallback = (list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void;

export interface FirstPaintPageOptions {
  /** The text of the page's JSON element (`appCodeScript`), or null for a page without one. */
  appCodeJson: string | null;
  /** Whether the browser has paint timing (else constructing a PerformanceObserver throws). @default true */
  paintTiming?: boolean;
  /** navigator.language. @default 'en-US' */
  language?: string;
}

export function firstPaintPage({ appCodeJson, paintTiming = true, language = 'en-US' }: FirstPaintPageOptions) {
  const appended: Appended[] = [];
  const tasks: Array<{ run: () => void; ms: number }> = [];
  const frames: Array<() => void> = [];
  const observers: Array<{ callback: PaintCallback; options?: unknown; disconnected: boolean }> = [];
  const localesAsked: string[] = [];
  const globals = {
    document: {
      getElementById: (id: string) => (id === APP_CODE_ELEMENT_ID && appCodeJson !== null ? { textContent: appCodeJson } : null),
      createElement: (tag: string) => ({ tag }),
      head: { appendChild: (element: Appended) => appended.push(element) },
    },
    navigator: { language },
    Intl: {
      DateTimeFormat: { supportedLocalesOf: (locales: string[]) => localesAsked.push(...locales) },
      Locale: class {
        constructor(readonly tag: string) {}
        maximize() {
          return this;
        }
      },
    },
    PerformanceObserver: class {
      constructor(callback: PaintCallback) {
        if (!paintTiming) throw new TypeError('no paint timing');
        observers.push({ callback, disconnected: false });
      }
      observe(options: unknown) {
        observers[observers.length - 1].options = options;
      }
    },
    setTimeout: (run: () => void, ms = 0) => tasks.push({ run, ms }),
    requestAnimationFrame: (run: () => void) => frames.push(run),
  };

  /** Runs the tasks due now (timeouts of 0), in order; returns how many elements each one appended. */
  const runDue = () => {
    const perTask: number[] = [];
    for (let i = tasks.findIndex((t) => t.ms === 0); i >= 0; i = tasks.findIndex((t) => t.ms === 0)) {
      const before = appended.length;
      tasks.splice(i, 1)[0].run();
      perTask.push(appended.length - before);
    }
    return perTask;
  };

  /** The browser reports paint entries of these names to the first observer. */
  const paint = (entries: string[] = ['first-paint', 'first-contentful-paint']) => {
    const observer = observers[0];
    observer.callback({ getEntriesByName: (name) => entries.filter((e) => e === name) }, { disconnect: () => (observer.disconnected = true) });
  };

  return { globals: globals as unknown as LoaderGlobals, sandbox: globals, appended, tasks, frames, observers, localesAsked, runDue, paint };
}
