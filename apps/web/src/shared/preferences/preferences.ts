import { useStoredValue } from './stored-value';

/**
 * Single-key keyboard shortcuts (inbox j/k/a/r/e). On by default; a person who uses a screen
 * reader or voice control can turn them off in Settings (WCAG 2.1.4).
 */
export function useShortcutsEnabled() {
  return useStoredValue('interlock.shortcuts', true);
}

/** After a decision answers the interrupt, open the next open one (on by default; Settings turns it off). */
export function useNextAfterDecision() {
  return useStoredValue('interlock.nextAfterDecision', true);
}
