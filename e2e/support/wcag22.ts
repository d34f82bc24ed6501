/**
 * Page measurements for the WCAG 2.2 checks of e2e/wcag22.spec.ts: target size (2.5.8), focus not obscured
 * (2.4.11), reflow (1.4.10) and text spacing (1.4.12). Each runs in the page and returns plain findings, so a failed
 * assertion names the controls or elements at fault.
 */
import type { Page } from '@playwright/test';

/** A control that is smaller than 24 × 24 CSS px and too close to another one. */
export interface TargetFinding {
  control: string;
  width: number;
  height: number;
  /** The control its 24 px circle reaches. */
  near: string;
}

/**
 * How many controls were measured, and those that fail 2.5.8 Target Size (Minimum): smaller than 24 × 24 CSS px and not spaced (a 24 px circle centred
 * on the control meets another control, or that control's own circle when it is undersized too). Exempt, as the
 * criterion says: links inside a sentence (an inline link whose own line box is shared with the sentence's text),
 * and elements that are not targets at the moment (hidden, inert, or behind a modal dialog).
 */
export function targetSizeFailures(page: Page): Promise<{ measured: number; failures: TargetFinding[] }> {
  return page.evaluate(() => {
    const SELECTOR = [
      'a[href]',
      'button',
      'input:not([type=hidden])',
      'select',
      'textarea',
      'summary',
      '[role=button]',
      '[role=link]',
      '[role=switch]',
      '[role=checkbox]',
      '[role=radio]',
      '[role=tab]',
      '[role=menuitem]',
      '[role=menuitemradio]',
      '[role=menuitemcheckbox]',
      '[role=option]',
      '[role=slider]',
      '[tabindex]:not([tabindex="-1"])',
    ].join(',');

    const describe = (el: Element) => {
      const name = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText?.trim().slice(0, 40) ?? '';
      return `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${name}"`;
    };

    /** Visually hidden for screen readers only (Tailwind's sr-only, React Aria's VisuallyHidden): no one sees or points at it. */
    const visuallyHidden = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') return true;
      }
      return false;
    };
    /**
     * The box a pointer aims at. A visually hidden input is hit through what is drawn for it: its label (React Aria's
     * switches and radios), else the nearest drawn element around it (a slider's thumb).
     */
    const targetBox = (el: Element): { el: Element; rect: DOMRect } | null => {
      if (!(el instanceof HTMLInputElement && visuallyHidden(el))) return { el, rect: el.getBoundingClientRect() };
      const label = el.closest('label') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`) : null);
      if (label) return { el: label, rect: label.getBoundingClientRect() };
      let drawn = el.parentElement;
      while (drawn && visuallyHidden(drawn)) drawn = drawn.parentElement;
      return drawn ? { el: drawn, rect: drawn.getBoundingClientRect() } : null;
    };

    /** A link inside a sentence: shown inline, with text of its own paragraph on either side of it. */
    const isInlineInSentence = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const parent = el.parentElement;
      if (!parent) return false;
      return [...parent.childNodes].some((node) => node !== el && node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim().length > 0);
    };

    const isTarget = (el: Element) => {
      if (!el.checkVisibility({ visibilityProperty: true }) || visuallyHidden(el)) return false;
      return !el.closest('[inert], [aria-hidden="true"]');
    };

    const boxes: { el: Element; rect: DOMRect }[] = [];
    for (const el of document.querySelectorAll(SELECTOR)) {
      const box = targetBox(el);
      if (!box || !isTarget(box.el) || isInlineInSentence(box.el) || box.rect.width === 0 || box.rect.height === 0) continue;
      if (boxes.some((b) => b.el === box.el)) continue;
      boxes.push(box);
    }
    // A control nested in another (a button in a link's box) is one target with it.
    const related = (a: Element, b: Element) => a === b || a.contains(b) || b.contains(a);
    const centre = (r: DOMRect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const undersized = (r: DOMRect) => r.width < 23.5 || r.height < 23.5;
    const distanceToRect = (p: { x: number; y: number }, r: DOMRect) =>
      Math.hypot(Math.max(r.left - p.x, 0, p.x - r.right), Math.max(r.top - p.y, 0, p.y - r.bottom));

    const findings: TargetFinding[] = [];
    for (const a of boxes) {
      if (!undersized(a.rect)) continue;
      const c = centre(a.rect);
      for (const b of boxes) {
        if (related(a.el, b.el)) continue;
        const reaches = undersized(b.rect) ? Math.hypot(c.x - centre(b.rect).x, c.y - centre(b.rect).y) < 24 : distanceToRect(c, b.rect) < 12;
        if (reaches) {
          findings.push({ control: describe(a.el), width: Math.round(a.rect.width), height: Math.round(a.rect.height), near: describe(b.el) });
          break;
        }
      }
    }
    return { measured: boxes.length, failures: findings };
  });
}

/**
 * How the focused element is covered (2.4.11 Focus Not Obscured), with a number that tells the focused elements apart: its centre and four corners (1 px inside), each
 * with what the page shows there. `hidden` is true when no point shows the focused control (or its own box). A
 * visually hidden input (a switch's or a radio's) is measured by its label, which is what the focus ring draws.
 */
export function focusedCoverage(page: Page): Promise<{ focused: string; key: number; hidden: boolean; coveredBy: string[] } | null> {
  return page.evaluate(() => {
    let el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return null;
    // A number for each element that took the focus, so a walk can count distinct stops (names repeat: 'Default').
    const store = window as unknown as { focusKeys?: WeakMap<Element, number>; focusKeyCount?: number };
    store.focusKeys ??= new WeakMap();
    if (!store.focusKeys.has(el)) store.focusKeys.set(el, (store.focusKeyCount = (store.focusKeyCount ?? 0) + 1));
    const key = store.focusKeys.get(el)!;
    /** Its role and accessible name, roughly: aria-label, aria-labelledby, its label, or its text. */
    const describe = (e: Element) => {
      const labelledBy = e.getAttribute('aria-labelledby');
      const name =
        e.getAttribute('aria-label') ??
        (labelledBy ? labelledBy.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : null) ??
        ((e as HTMLInputElement).labels?.[0]?.textContent || (e as HTMLElement).innerText) ??
        '';
      return `${e.tagName.toLowerCase()}${e.getAttribute('role') ? `[role=${e.getAttribute('role')}]` : ''} "${name.trim().slice(0, 40)}"`;
    };
    /** Visually hidden for screen readers only (Tailwind's sr-only, React Aria's VisuallyHidden): no one sees or points at it. */
    const visuallyHidden = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') return true;
      }
      return false;
    };
    const name = describe(el);
    let rect = el.getBoundingClientRect();
    if (visuallyHidden(el)) {
      const label = el.closest('label');
      if (label) {
        el = label;
        rect = label.getBoundingClientRect();
      }
    }
    const inset = Math.min(1, rect.width / 2, rect.height / 2);
    const points = [
      [rect.left + rect.width / 2, rect.top + rect.height / 2],
      [rect.left + inset, rect.top + inset],
      [rect.right - inset, rect.top + inset],
      [rect.left + inset, rect.bottom - inset],
      [rect.right - inset, rect.bottom - inset],
    ];
    const coveredBy: string[] = [];
    let shown = 0;
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit) || hit.contains(el))) shown++;
      else coveredBy.push(hit ? describe(hit.closest('[role=group], [role=dialog], [role=region], nav, header, footer') ?? hit) : 'outside the viewport');
    }
    return { focused: name, key, hidden: shown === 0, coveredBy };
  });
}

/** 1.4.10 Reflow: the page's own horizontal overflow, and each open dialog's, in CSS px past the viewport. */
export function horizontalOverflow(page: Page): Promise<{ document: number; dialogs: { name: string; overflow: number }[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const dialogs = [...document.querySelectorAll('[role=dialog], [role=alertdialog]')].map((d) => {
      const rect = d.getBoundingClientRect();
      return {
        name: d.getAttribute('aria-label') ?? d.querySelector('h1, h2, h3, [slot=title]')?.textContent?.trim() ?? d.id,
        // Past the viewport's edges, or a dialog that itself scrolls sideways.
        overflow: Math.max(0, Math.round(rect.right - root.clientWidth), Math.round(-rect.left), d.scrollWidth - d.clientWidth),
      };
    });
    return { document: Math.max(0, root.scrollWidth - root.clientWidth), dialogs };
  });
}

/** The text spacing of 1.4.12, as a reader's style sheet or bookmarklet applies it. */
export const TEXT_SPACING_CSS = `
  *, *::before, *::after { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
  p { margin-bottom: 2em !important; }
`;

/**
 * Elements whose text is cut off (1.4.12): visible, with text of their own, overflow hidden or clipped on an axis,
 * and content larger than their box on that axis. Scrolling boxes are not clipping, and visually hidden text (1 px,
 * for screen readers) is not shown to anyone.
 */
export function clippedText(page: Page): Promise<{ element: string; text: string; axis: string; client: number; scroll: number }[]> {
  return page.evaluate(() => {
    /** Visually hidden for screen readers only (Tailwind's sr-only, React Aria's VisuallyHidden): no one sees or points at it. */
    const visuallyHidden = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') return true;
      }
      return false;
    };
    const found: { element: string; text: string; axis: string; client: number; scroll: number }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.checkVisibility({ visibilityProperty: true }) || visuallyHidden(el)) continue;
      const cs = getComputedStyle(el);
      const clipsX = cs.overflowX === 'hidden' || cs.overflowX === 'clip';
      const clipsY = cs.overflowY === 'hidden' || cs.overflowY === 'clip';
      if (!clipsX && !clipsY) continue;
      if (el.clientWidth <= 1 || el.clientHeight <= 1) continue;
      const text = el.innerText?.trim() ?? '';
      if (!text) continue;
      const describe = `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''}.${[...el.classList].slice(0, 4).join('.')}`;
      if (clipsX && el.scrollWidth > el.clientWidth + 1) found.push({ element: describe, text: text.slice(0, 60), axis: 'x', client: el.clientWidth, scroll: el.scrollWidth });
      else if (clipsY && el.scrollHeight > el.clientHeight + 1) found.push({ element: describe, text: text.slice(0, 60), axis: 'y', client: el.clientHeight, scroll: el.scrollHeight });
    }
    return found;
  });
}

/**
 * Controls whose visible text is not part of their accessible name (2.5.3 Label in Name): an aria-label that
 * replaces what the control shows, so a speech-input user who says the words on screen does not reach it. Only
 * controls with both an aria-label and text of their own are looked at; an icon-only control has nothing to match.
 */
export function labelNotInName(page: Page): Promise<{ control: string; name: string; visible: string }[]> {
  return page.evaluate(() => {
    const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
    const found: { control: string; name: string; visible: string }[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'a[href][aria-label], button[aria-label], [role=button][aria-label], [role=link][aria-label], [role=tab][aria-label], [role=menuitem][aria-label], [role=switch][aria-label]',
    );
    for (const el of controls) {
      if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('[inert], [aria-hidden="true"]')) continue;
      const visible = normal(el.innerText ?? '');
      // aria-labelledby wins over aria-label, and may name the element itself among others (React Aria's Select
      // button: its value, then its own label).
      const labelledBy = el.getAttribute('aria-labelledby');
      const name = normal(
        labelledBy
          ? labelledBy
              .split(' ')
              .map((id) => (id === el.id ? el.getAttribute('aria-label') : document.getElementById(id)?.textContent) ?? '')
              .join(' ')
          : (el.getAttribute('aria-label') ?? ''),
      );
      if (visible && !name.includes(visible)) found.push({ control: el.tagName.toLowerCase(), name, visible });
    }
    return found;
  });
}

/**
 * Text fields and selects whose border is under 3:1 against the colour around the field or the field's own fill (1.4.11
 * Non-text Contrast: the boundary is what shows a field is there). Colours are composited over what lies behind
 * them, as the page draws them. `measured` counts the fields looked at.
 */
export function weakFieldBorders(page: Page): Promise<{ measured: number; weak: { field: string; border: string; ratio: number }[] }> {
  return page.evaluate(() => {
    type RGBA = [number, number, number, number];
    /** rgb()/rgba(), or oklab() as a translucent Tailwind colour (`bg-paper/60`) computes to. */
    const parse = (color: string): RGBA => {
      const rgb = /^rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)$/.exec(color);
      if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
      const lab = /^oklab\(([-\d.e]+) ([-\d.e]+) ([-\d.e]+)(?: \/ ([\d.]+))?\)$/.exec(color);
      if (!lab) throw new Error(`cannot read the colour ${color}`);
      const [L, a, b] = [Number(lab[1]), Number(lab[2]), Number(lab[3])];
      const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
      const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
      const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
      const encode = (c: number) => 255 * Math.min(1, Math.max(0, c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
      return [
        encode(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
        encode(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
        encode(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
        lab[4] === undefined ? 1 : Number(lab[4]),
      ];
    };
    const over = (top: RGBA, below: RGBA): RGBA => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3])).concat(1) as RGBA;
    /** The background an element's box shows, with the translucent layers of its ancestors composited. */
    const backgroundOf = (el: Element | null): RGBA => {
      const layers: RGBA[] = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] === 1) break;
      }
      return layers.reduceRight<RGBA>((below, top) => over(top, below), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: RGBA) => {
      const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const ratio = (a: RGBA, b: RGBA) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const fields = [...document.querySelectorAll<HTMLElement>('input, textarea, select')].filter((el) => {
      if (el instanceof HTMLInputElement && ['checkbox', 'radio', 'range', 'hidden', 'file', 'submit', 'button'].includes(el.type)) return false;
      if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('[inert], [aria-hidden="true"]')) return false;
      return el.getBoundingClientRect().width > 1;
    });
    const weak: { field: string; border: string; ratio: number }[] = [];
    for (const field of fields) {
      const cs = getComputedStyle(field);
      const outside = backgroundOf(field.parentElement);
      const fill = backgroundOf(field);
      const border = over(parse(cs.borderBottomColor), fill);
      const worst = Math.min(ratio(border, outside), ratio(border, fill));
      if (parseFloat(cs.borderBottomWidth) === 0 || worst < 3) {
        const name = field.getAttribute('aria-label') ?? (field as HTMLInputElement).labels?.[0]?.textContent ?? field.getAttribute('placeholder') ?? field.id;
        weak.push({ field: name.trim(), border: cs.borderBottomColor, ratio: Math.round(worst * 100) / 100 });
      }
    }
    return { measured: fields.length, weak };
  });
}
