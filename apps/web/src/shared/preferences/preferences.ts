import { useLocalStorage } from '@mantine/hooks';

/**
 * Single-key keyboard shortcuts (inbox j/k/a/r/e). On by default; a person who uses a screen
 * reader or voice control can turn them off in Settings (WCAG 2.1.4).
 */
export function useShortcutsEnabled() {
  return useLocalStorage<boolean>({
    key: 'interlock.shortcuts',
    defaultValue: true,
    getInitialValueInEffect: false,
  });
}

/** After a decision answers the interrupt, open the next open one (on by default; Settings turns it off). */
export function useNextAfterDecision() {
  return useLocalStorage<boolean>({
    key: 'interlock.nextAfterDecision',
    defaultValue: true,
    getInitialValueInEffect: false,
  });
}
