import type { DecisionType } from '@interlock/api-client';
import { useEffect } from 'react';
import { notifyError } from '@/shared/utils/notify';
import { belongsElsewhere } from './use-inbox-shortcuts';

const KEYS: Record<string, DecisionType> = { a: 'approve', e: 'edit', r: 'reject', s: 'respond' };

/**
 * The action a shortcut is for: the action card that holds keyboard focus if it is still
 * undecided, else the next undecided one after it, else the first undecided one.
 */
function targetCard(): HTMLElement | null {
  const cards = [...document.querySelectorAll<HTMLElement>('[data-action-card]')];
  const focused =
    (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-action-card]') ??
    null;
  const from = focused === null ? 0 : cards.indexOf(focused);
  return (
    [...cards.slice(from), ...cards.slice(0, from)].find((c) => c.hasAttribute('data-undecided')) ??
    null
  );
}

/**
 * The interrupt page's single-key shortcuts: a approves, e edits, r rejects, s responds — for
 * the focused action (see `targetCard`). Each presses that card's own button, so a key does
 * exactly what the visible button does and nothing an action does not allow.
 */
export function useInterruptShortcuts(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const decision = KEYS[event.key];
      if (decision === undefined || belongsElsewhere(event)) return;
      const card = targetCard();
      // No card, or one this member cannot decide (no buttons at all): the key does nothing.
      if (card === null || card.querySelector('[data-decision]') === null) return;
      event.preventDefault();
      const button = card.querySelector<HTMLButtonElement>(`[data-decision="${decision}"]`);
      if (button === null) {
        notifyError(
          new Error(
            `${card.dataset.actionCard ?? 'This action'} does not allow ${decision === 'respond' ? 'a response' : `${decision}`}.`,
          ),
        );
        return;
      }
      card.scrollIntoView({ block: 'nearest' });
      button.click();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
