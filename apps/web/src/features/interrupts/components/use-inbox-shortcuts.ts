import { useEffect, useRef } from 'react';

export interface InboxShortcutHandlers {
  move: (delta: 1 | -1) => void;
  open: () => void;
  approve: () => void;
  reject: () => void;
  edit: () => void;
  undo: () => void;
}

/** Whether a key press belongs to something else: a modifier chord, typing in a field. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  return target?.closest('input, textarea, select, [contenteditable="true"]') != null;
}

/** Whether a key press belongs to something else: typing in a field, a dialog (open or closing), a menu, a modifier chord. */
export function belongsElsewhere(event: KeyboardEvent): boolean {
  if (isTyping(event)) return true;
  const target = event.target as HTMLElement | null;
  if (target?.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return true;
  return document.querySelector('[role="dialog"]') !== null;
}

/** The inbox's single-key shortcuts: j/k move, Enter opens, a approves (after a confirm), z undoes, r rejects, e edits. */
export function useInboxShortcuts(enabled: boolean, handlers: InboxShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      // z takes an approval back even while a dialog is still closing or another is open.
      if (event.key === 'z' && !isTyping(event)) {
        latest.current.undo();
        event.preventDefault();
        return;
      }
      if (belongsElsewhere(event)) return;
      const h = latest.current;
      const target = event.target as HTMLElement | null;
      switch (event.key) {
        case 'j':
          h.move(1);
          break;
        case 'k':
          h.move(-1);
          break;
        case 'Enter':
          // On a link or a button, Enter already does what it says.
          if (target?.closest('a, button')) return;
          h.open();
          break;
        case 'a':
          h.approve();
          break;
        case 'r':
          h.reject();
          break;
        case 'e':
          h.edit();
          break;
        default:
          return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
