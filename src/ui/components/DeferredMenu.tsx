/**
 * A menu button whose menu (React Aria's MenuTrigger, Popover and Menu, with their collection, selection and
 * overlay code) is a lazy chunk, so the catalog's JS does not carry it (bench/browser.ts budget). The chunk is
 * requested when the reader shows the intent to use the menu (the pointer comes over its button, the button takes
 * focus, or it is pressed), not before; until it arrives the same button stands in for it, and a press on that
 * button opens the menu as soon as it is there (keyboard focus carries over too).
 *
 * The reader's dropdowns (React Aria's Select) are deferred the same way (`popup: 'listbox'`): mounting a Select
 * renders its collection twice, synchronously, and the reader has four of them
 * (docs/performance.md).
 */
import { lazy, Suspense, useEffect, useState, type ComponentType, type Dispatch, type ReactElement, type ReactNode, type SetStateAction } from 'react';
import { Button } from 'react-aria-components';

/** The menu's trigger button: the same in the stand-in and in the loaded menu. */
export interface MenuButtonSpec {
  className: string;
  /** A dropdown's stand-in carries the name its Select's trigger has: the value shown, then the label. */
  'aria-label'?: string;
  children: ReactNode;
  /** What the button opens: a menu, a dropdown's listbox, or a dialog in a popover. @default 'menu' */
  popup?: 'menu' | 'listbox' | 'dialog';
  /** Called when the pointer comes over the stand-in (the loaded button calls its own). */
  onHoverStart?: () => void;
  /** Called when the stand-in takes focus (the loaded button calls its own). */
  onFocus?: () => void;
  /**
   * Wraps the stand-in (a hint on hover). A wrapped stand-in does not load its menu on hover, only on focus or a
   * press: a hint under a resting pointer would be lost when the loaded button took its place.
   */
  wrap?: (button: ReactElement) => ReactElement;
}

/** What the loaded menu gets besides its own props: its button, and whether the stand-in was pressed or focused. */
export interface DeferredMenuProps {
  button: MenuButtonSpec;
  /** Open at once (the stand-in was pressed). Pass to MenuTrigger's defaultOpen. */
  defaultOpen: boolean;
  /** Take focus at once (the stand-in had it, and the menu does not open). Pass to the Button's autoFocus. */
  autoFocus: boolean;
}

interface Pending {
  /** The stand-in was pressed: open the menu when it arrives. */
  open: boolean;
  /** The stand-in has keyboard focus: give it to the loaded button. */
  focused: boolean;
}

const NOTHING_PENDING: Pending = { open: false, focused: false };

/**
 * A lazy menu whose chunk is fetched once `wake` is called (the first sign the menu is wanted). `prefetch` fetches
 * the chunk without mounting the menu (an idle prefetch): the stand-in stays until the menu is wanted, and then the
 * menu takes its place without waiting for the network.
 */
export type IntentMenu<P> = ComponentType<P> & { wake: () => void; prefetch: () => Promise<unknown> };

/**
 * A lazy menu component that starts loading its chunk on `wake`. React renders it (and so calls its loader) at
 * once; the loader waits for the intent, so the tree around it never changes shape while it loads.
 */
export function lazyMenu<P extends DeferredMenuProps>(load: () => Promise<{ default: ComponentType<P> }>): IntentMenu<P> {
  let wake!: () => void;
  const intent = new Promise<void>((resolve) => (wake = resolve));
  return Object.assign(lazy(() => intent.then(load)), { wake, prefetch: load }) as unknown as IntentMenu<P>;
}

/** A menu's own props: P without DeferredMenuProps (for each member of a union). */
type OwnProps<P> = P extends unknown ? Omit<P, keyof DeferredMenuProps> : never;

export function DeferredMenu<P extends DeferredMenuProps>({
  menu: Menu,
  props,
  button,
}: {
  /** A lazy component (lazyMenu) rendering MenuTrigger > Button + Popover. */
  menu: IntentMenu<P>;
  props: OwnProps<P>;
  button: MenuButtonSpec;
}) {
  const [pending, setPending] = useState<Pending>(NOTHING_PENDING);
  // Opening moves focus into the menu, so the button takes focus only when it does not open (the popover closes
  // when focus leaves it).
  const deferred: DeferredMenuProps = { button, defaultOpen: pending.open, autoFocus: pending.focused && !pending.open };
  return (
    <Suspense fallback={<StandIn button={button} setPending={setPending} wake={Menu.wake} />}>
      <Menu {...({ ...props, ...deferred } as unknown as P)} />
    </Suspense>
  );
}

/**
 * The button alone, while the menu loads. It notes a press and focus; both are forgotten once the menu took over.
 * A mouse press counts when it starts, as a menu trigger opens then: the menu may arrive between the button going
 * down and coming up, and the loaded button never sees a press that began on this one.
 */
function StandIn({ button, setPending, wake }: { button: MenuButtonSpec; setPending: Dispatch<SetStateAction<Pending>>; wake: () => void }) {
  useEffect(() => () => setPending(NOTHING_PENDING), [setPending]);
  const { popup = 'menu', onHoverStart, onFocus, wrap, ...props } = button;
  const open = () => {
    wake();
    setPending((p) => ({ ...p, open: true }));
  };
  const standIn = (
    <Button
      {...props}
      aria-haspopup={popup}
      aria-expanded={false}
      onHoverStart={() => {
        onHoverStart?.();
        if (!wrap) wake();
      }}
      onPressStart={(event) => (event.pointerType === 'mouse' ? open() : wake())}
      onPress={(event) => event.pointerType !== 'mouse' && open()}
      onKeyDown={(event) => {
        // React Aria's menu and dropdown triggers open on the key going down (Enter, Space, and a dropdown's up and
        // down arrows), not on its release: so does the stand-in, or a release that came after the loaded trigger
        // took its place would open nothing.
        if (opensOnKeyDown(popup, event.key)) open();
        else event.continuePropagation();
      }}
      onFocusChange={(focused) => {
        if (focused) {
          onFocus?.();
          wake();
        }
        setPending((p) => ({ ...p, focused }));
      }}
    />
  );
  return wrap ? wrap(standIn) : standIn;
}

/** Whether the key, going down on a trigger of this popup, opens it (as React Aria's menu and dropdown triggers do). */
function opensOnKeyDown(popup: NonNullable<MenuButtonSpec['popup']>, key: string): boolean {
  if (popup === 'dialog') return false;
  return key === 'Enter' || key === ' ' || (popup === 'listbox' && (key === 'ArrowDown' || key === 'ArrowUp'));
}

/**
 * A ref for a loaded trigger that had the stand-in's focus: the focus moves to it in the commit that mounts it, not
 * in an effect after the paint (React Aria's `autoFocus`), so a key pressed between the two does not land on the
 * page, the stand-in being gone. Once: a later render leaves the focus where the reader put it.
 */
function focusOnceAttached(wanted: boolean): (button: HTMLButtonElement | null) => void {
  let attached = false;
  return (button) => {
    if (!button || attached) return;
    attached = true;
    if (wanted && !button.contains(document.activeElement)) button.focus();
  };
}

/**
 * A deferred dropdown's open state. A Select that mounts because its stand-in was pressed first mounts closed with
 * its trigger focused, and opens just after: React Aria's popover gives focus back, on closing, to what had it
 * when the popover mounted, and the stand-in is gone by then. `onOpenChange` hears that opening too, which a
 * Select's `defaultOpen` would not tell it. Spread `select` into the Select and `trigger` into its Button.
 */
export function useDeferredSelect({ defaultOpen, autoFocus, onOpenChange }: { defaultOpen: boolean; autoFocus: boolean; onOpenChange?: (open: boolean) => void }) {
  const [isOpen, setOpen] = useState(false);
  const [atMount] = useState(() => ({ defaultOpen, onOpenChange, focusTrigger: focusOnceAttached(autoFocus || defaultOpen) }));
  useEffect(() => {
    if (!atMount.defaultOpen) return;
    setOpen(true);
    atMount.onOpenChange?.(true);
  }, [atMount]);
  return {
    select: {
      isOpen,
      onOpenChange: (open: boolean) => {
        setOpen(open);
        onOpenChange?.(open);
      },
    },
    trigger: {
      autoFocus: autoFocus || atMount.defaultOpen,
      ref: atMount.focusTrigger,
    },
  };
}
