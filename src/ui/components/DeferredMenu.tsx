/**
 * A menu button whose menu (React Aria's MenuTrigger, Popover and Menu, with their collection, selection and
 * overlay code) is a lazy chunk, so the catalog's entry JS does not carry it (bench/browser.ts budget). The chunk is
 * requested when the button first renders; until it arrives the same button stands in for it, and a press on that
 * button opens the menu as soon as it is there (keyboard focus carries over too).
 */
import { Suspense, useEffect, useState, type ComponentType, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Button } from 'react-aria-components';

/** The menu's trigger button: the same in the stand-in and in the loaded menu. */
export interface MenuButtonSpec {
  className: string;
  'aria-label'?: string;
  children: ReactNode;
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

/** A menu's own props: P without DeferredMenuProps (for each member of a union). */
type OwnProps<P> = P extends unknown ? Omit<P, keyof DeferredMenuProps> : never;

export function DeferredMenu<P extends DeferredMenuProps>({
  menu: Menu,
  props,
  button,
}: {
  /** A React.lazy component rendering MenuTrigger > Button + Popover. */
  menu: ComponentType<P>;
  props: OwnProps<P>;
  button: MenuButtonSpec;
}) {
  const [pending, setPending] = useState<Pending>(NOTHING_PENDING);
  // Opening moves focus into the menu, so the button takes focus only when it does not open (the popover closes
  // when focus leaves it).
  const deferred: DeferredMenuProps = { button, defaultOpen: pending.open, autoFocus: pending.focused && !pending.open };
  return (
    <Suspense fallback={<StandIn button={button} setPending={setPending} />}>
      <Menu {...({ ...props, ...deferred } as unknown as P)} />
    </Suspense>
  );
}

/**
 * The button alone, while the menu loads. It notes a press and focus; both are forgotten once the menu took over.
 * A mouse press counts when it starts, as a menu trigger opens then: the menu may arrive between the button going
 * down and coming up, and the loaded button never sees a press that began on this one.
 */
function StandIn({ button, setPending }: { button: MenuButtonSpec; setPending: Dispatch<SetStateAction<Pending>> }) {
  useEffect(() => () => setPending(NOTHING_PENDING), [setPending]);
  const open = () => setPending((p) => ({ ...p, open: true }));
  return (
    <Button
      {...button}
      aria-haspopup="menu"
      aria-expanded={false}
      onPressStart={(event) => event.pointerType === 'mouse' && open()}
      onPress={(event) => event.pointerType !== 'mouse' && open()}
      onFocusChange={(focused) => setPending((p) => ({ ...p, focused }))}
    />
  );
}
