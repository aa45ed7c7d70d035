import { Menu, type MenuProps } from '@mantine/core';
import {
  cloneElement,
  type ReactElement,
  type ReactNode,
  type Ref,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

type TargetProps = {
  ref?: Ref<HTMLButtonElement>;
  onClick?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
};

/**
 * A Mantine Menu that is only its button until first opened. A closed Menu is not free: its
 * Popover positions nothing but still mounts its floating-position hooks and a portal for its
 * dropdown, and draws its button twice (once more when the button's node is known) — on every
 * page's first load, for menus the header always shows (tools:bench-web's profile).
 *
 * The first click mounts the Menu closed with the button now its target, gives that button the
 * focus, then opens it (one render later, as `useDialogMount` does for dialogs), so Mantine
 * records where focus goes back to on close. From then on it is Mantine's Menu as ever.
 */
export function MenuOnDemand({
  target,
  children,
  ...menu
}: Omit<MenuProps, 'children' | 'opened' | 'onChange' | 'defaultOpened'> & {
  /** The button (one element that takes a ref and an onClick). */
  target: ReactElement<TargetProps>;
  /** The dropdown's items. */
  children: ReactNode;
}) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const justMounted = useRef(false);
  useLayoutEffect(() => {
    if (!mounted || !justMounted.current) return;
    // The button the person pressed was replaced by the Menu's own: the focus stays on it.
    button.current?.focus({ preventScroll: true });
  }, [mounted]);
  useEffect(() => {
    if (!mounted || !justMounted.current) return;
    justMounted.current = false;
    setOpened(true);
  }, [mounted]);

  if (!mounted)
    return cloneElement(target, {
      ref: button,
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: () => {
        justMounted.current = true;
        setMounted(true);
      },
    });
  return (
    <Menu {...menu} opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(target, { ref: button })}</Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
