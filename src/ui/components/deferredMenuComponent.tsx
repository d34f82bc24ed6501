/**
 * A menu button as a component of its own: the button drawn from the component's props, and the menu a lazy chunk
 * that mounts on the first sign it is wanted (DeferredMenu.tsx). The catalog's Filter / Sort menu is one.
 */
import type { ComponentType } from 'react';
import { DeferredMenu, lazyMenu, type DeferredMenuProps, type MenuButtonSpec } from './DeferredMenu';

/** The props the component takes: the menu's own, without what DeferredMenu gives it. */
type OwnProps<P extends DeferredMenuProps> = Parameters<typeof DeferredMenu<P>>[0]['props'];

export function deferredMenuComponent<P extends DeferredMenuProps>(
  load: () => Promise<{ default: ComponentType<P> }>,
  button: (props: OwnProps<P>) => MenuButtonSpec,
): ComponentType<OwnProps<P>> {
  const menu = lazyMenu(load);
  return function MenuButton(props: OwnProps<P>) {
    return <DeferredMenu menu={menu} props={props} button={button(props)} />;
  };
}
