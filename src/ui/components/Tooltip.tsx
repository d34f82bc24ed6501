/**
 * A short hint on hover or keyboard focus (SPEC §9: after the tooltip delay, 750 ms, on hover). It shows after the
 * delay under a resting mouse and at once when its control takes keyboard focus; it hides on Escape, on blur, when
 * its control is pressed, and a moment after the pointer leaves the control, unless the pointer has moved onto the
 * hint itself (WCAG 1.4.13: hoverable, dismissible, persistent). The hint is `role="tooltip"` and describes its
 * control (`aria-describedby`) while it shows.
 *
 * It is drawn in a fixed layer at the end of the page, placed from its control's box when it opens (and again on
 * scroll and resize), and pulled back inside the window near its edges. Its state is its own: showing a hint
 * re-renders the hint and its control, nothing around them.
 */
import {
  cloneElement,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import type { HoverEvent } from 'react-aria';
import { TOOLTIP_DELAY_MS } from '../../domain/constants';

export type HintPlacement = 'top' | 'bottom' | 'start' | 'end';

/** How long a hint stays after the pointer leaves its control: time to move onto the hint. */
const CLOSE_DELAY_MS = 200;
/** The gap between the control and the hint (the arrow sits in it). */
const OFFSET_PX = 8;
/** The least distance between the hint and the window's edges. */
const EDGE_PX = 8;
const ARROW_PX = 10;

/** The props a hint adds to its control: React Aria's Button, ToggleButton and Link all take them. */
interface TriggerProps {
  'aria-describedby'?: string;
  onHoverStart?: (event: HoverEvent) => void;
  onHoverEnd?: (event: HoverEvent) => void;
  onFocus?: (event: FocusEvent) => void;
  onBlur?: (event: FocusEvent) => void;
  onPressStart?: (event: unknown) => void;
}

/**
 * How the reader last interacted: a focus that follows a key (or no interaction yet: focus moved by the page)
 * shows the hint, a focus that follows a pointer press does not. One pair of listeners for all hints.
 */
let lastInput: 'keyboard' | 'pointer' | null = null;
let trackingInput = false;
function trackInput() {
  if (trackingInput || typeof document === 'undefined') return;
  trackingInput = true;
  const onKey = (event: KeyboardEvent) => {
    if (event.metaKey || event.ctrlKey || event.key === 'Control' || event.key === 'Shift' || event.key === 'Meta' || event.key === 'Alt') return;
    lastInput = 'keyboard';
  };
  const onPointer = () => {
    lastInput = 'pointer';
  };
  document.addEventListener('keydown', onKey, true);
  document.addEventListener('pointerdown', onPointer, true);
  document.addEventListener('mousedown', onPointer, true);
}

/** The hint showing now, if any: one at a time. */
let hideShowing: (() => void) | null = null;

/** Places the hint (and its arrow) next to the control, flipped or pulled back so that it stays in the window. */
function place(tip: HTMLElement, anchor: Element, placement: HintPlacement) {
  const arrow = tip.firstElementChild as HTMLElement;
  const a = anchor.getBoundingClientRect();
  const width = tip.offsetWidth;
  const height = tip.offsetHeight;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const rtl = getComputedStyle(anchor).direction === 'rtl';
  let side: 'top' | 'bottom' | 'left' | 'right' = placement === 'start' ? (rtl ? 'right' : 'left') : placement === 'end' ? (rtl ? 'left' : 'right') : placement;
  // Flipped to the other side when it does not fit where asked and fits there.
  if (side === 'bottom' && a.bottom + OFFSET_PX + height > vh - EDGE_PX && a.top - OFFSET_PX - height >= EDGE_PX) side = 'top';
  else if (side === 'top' && a.top - OFFSET_PX - height < EDGE_PX && a.bottom + OFFSET_PX + height <= vh - EDGE_PX) side = 'bottom';
  else if (side === 'right' && a.right + OFFSET_PX + width > vw - EDGE_PX && a.left - OFFSET_PX - width >= EDGE_PX) side = 'left';
  else if (side === 'left' && a.left - OFFSET_PX - width < EDGE_PX && a.right + OFFSET_PX + width <= vw - EDGE_PX) side = 'right';
  const clamp = (value: number, max: number) => Math.max(EDGE_PX, Math.min(value, max - EDGE_PX));
  let left: number;
  let top: number;
  if (side === 'top' || side === 'bottom') {
    left = clamp(a.left + a.width / 2 - width / 2, vw - width);
    top = side === 'bottom' ? a.bottom + OFFSET_PX : a.top - OFFSET_PX - height;
    arrow.style.left = `${Math.max(4, Math.min(a.left + a.width / 2 - left - ARROW_PX / 2, width - ARROW_PX - 4))}px`;
    arrow.style.top = side === 'bottom' ? `${-ARROW_PX}px` : '100%';
    arrow.style.transform = side === 'bottom' ? 'rotate(180deg)' : '';
  } else {
    top = clamp(a.top + a.height / 2 - height / 2, vh - height);
    left = side === 'right' ? a.right + OFFSET_PX : a.left - OFFSET_PX - width;
    arrow.style.top = `${Math.max(4, Math.min(a.top + a.height / 2 - top - ARROW_PX / 2, height - ARROW_PX - 4))}px`;
    arrow.style.left = side === 'right' ? `${-ARROW_PX}px` : '100%';
    arrow.style.transform = side === 'right' ? 'rotate(90deg)' : 'rotate(-90deg)';
  }
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
  tip.dataset.placement = side;
}

export function Hint({
  content,
  children,
  placement = 'bottom',
}: {
  content: ReactNode;
  /** One React Aria control (Button, ToggleButton, Link): the hint adds its hover, focus and press handlers to it. */
  children: ReactElement;
  /** @default 'bottom' */
  placement?: HintPlacement;
}) {
  const id = useId();
  const [isOpen, setOpen] = useState(false);
  const anchor = useRef<Element | null>(null);
  const tipRef = useRef<HTMLDivElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Why it shows: the pointer over the control or the hint, and keyboard focus on the control.
  const reasons = useRef({ hover: false, focus: false });

  const hide = useCallback(() => {
    clearTimeout(timer.current);
    reasons.current = { hover: false, focus: false };
    setOpen(false);
  }, []);
  const show = useCallback(() => {
    clearTimeout(timer.current);
    if (hideShowing !== hide) hideShowing?.();
    hideShowing = hide;
    setOpen(true);
  }, [hide]);
  /** Hides after the close delay unless a reason to show comes back. */
  const leave = useCallback(() => {
    clearTimeout(timer.current);
    if (reasons.current.focus) return;
    timer.current = setTimeout(() => {
      if (!reasons.current.hover && !reasons.current.focus) setOpen(false);
    }, CLOSE_DELAY_MS);
  }, []);

  useEffect(trackInput, []);
  useEffect(() => () => {
    clearTimeout(timer.current);
    if (hideShowing === hide) hideShowing = null;
  }, [hide]);

  // Placed in the commit that puts it in the page, before it is painted; while it shows, kept by its control on
  // scroll and resize, and dismissed by Escape.
  useLayoutEffect(() => {
    if (!isOpen) return;
    const follow = () => {
      if (tipRef.current && anchor.current) place(tipRef.current, anchor.current, placement);
    };
    follow();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') hide();
    };
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    document.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
      document.removeEventListener('keydown', onKey, true);
      if (hideShowing === hide) hideShowing = null;
    };
  }, [isOpen, placement, hide]);

  const control = children as ReactElement<TriggerProps>;
  const own = control.props;
  const trigger = cloneElement(control, {
    'aria-describedby': [own['aria-describedby'], isOpen ? id : undefined].filter(Boolean).join(' ') || undefined,
    onHoverStart: (event: HoverEvent) => {
      own.onHoverStart?.(event);
      anchor.current = event.target;
      reasons.current.hover = true;
      clearTimeout(timer.current);
      if (!isOpen) timer.current = setTimeout(show, TOOLTIP_DELAY_MS);
    },
    onHoverEnd: (event: HoverEvent) => {
      own.onHoverEnd?.(event);
      reasons.current.hover = false;
      leave();
    },
    onFocus: (event: FocusEvent) => {
      own.onFocus?.(event);
      if (lastInput === 'pointer') return;
      anchor.current = event.target;
      reasons.current.focus = true;
      show();
    },
    onBlur: (event: FocusEvent) => {
      own.onBlur?.(event);
      reasons.current.focus = false;
      if (reasons.current.hover) leave();
      else hide();
    },
    onPressStart: (event: unknown) => {
      own.onPressStart?.(event);
      hide();
    },
  });

  return (
    <>
      {trigger}
      {isOpen &&
        createPortal(
          <div
            ref={tipRef}
            id={id}
            role="tooltip"
            onPointerEnter={() => {
              reasons.current.hover = true;
              clearTimeout(timer.current);
            }}
            onPointerLeave={() => {
              reasons.current.hover = false;
              leave();
            }}
            style={{ position: 'fixed', left: 0, top: 0, zIndex: 100000 }}
            className="max-w-[min(16rem,calc(100vw-1rem))] rounded-lg bg-primary-950 px-3 py-1.5 text-sm leading-snug text-white shadow-lg"
          >
            {/* The arrow: the first child, placed with the hint (place). */}
            <span aria-hidden="true" className="absolute block size-2.5">
              <svg width={ARROW_PX} height={ARROW_PX} viewBox="0 0 10 10" className="block fill-primary-950">
                <path d="M0 0 L5 5 L10 0" />
              </svg>
            </span>
            {content}
          </div>,
          document.body,
        )}
    </>
  );
}
