import { Button, Stack, Text, type ButtonProps, type ButtonVariant } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { FormError } from './form-error';

export interface ConfirmOptions {
  /** A question: "Delete this webhook?" */
  title: string;
  /** What happens, in a sentence or two (plain text is wrapped in a paragraph). */
  body: ReactNode;
  /** The confirm button says what it does: "Delete webhook", not "OK". */
  confirmLabel: string;
  /** Destructive (red) unless false. */
  danger?: boolean;
  /**
   * The change. The dialog stays open, its button busy, until this settles: resolved, it closes;
   * rejected, the API's exact message shows in the dialog and the person can try again or cancel.
   */
  onConfirm: () => Promise<unknown>;
}

/**
 * The one confirmation dialog of the dashboard (Mantine's `modals.openConfirmModal`): Cancel has
 * focus, so Enter never confirms by accident; Escape or a click outside cancels. Once the change
 * is made, the focus goes back to what opened the dialog, or, when the change took that away (a
 * row's Remove button goes with its row), somewhere near it (`focusNearOpener`).
 */
export function confirmAction({
  title,
  body,
  confirmLabel,
  danger = true,
  onConfirm,
}: ConfirmOptions): void {
  const refocus = focusNearOpener(document.activeElement);
  const content = (error: unknown) => (
    <Stack>
      {typeof body === 'string' ? <Text size="sm">{body}</Text> : body}
      <FormError error={error} />
    </Stack>
  );
  const color = danger ? 'red' : undefined;
  const id = modals.openConfirmModal({
    title,
    children: content(null),
    labels: { confirm: confirmLabel, cancel: 'Cancel' },
    confirmProps: { color },
    cancelProps: { 'data-autofocus': true },
    closeOnConfirm: false,
    onConfirm: () => {
      modals.updateModal({
        modalId: id,
        children: content(null),
        confirmProps: { color, loading: true },
      });
      onConfirm().then(
        () => {
          modals.close(id);
          refocus();
        },
        (error: unknown) =>
          modals.updateModal({
            modalId: id,
            children: content(error),
            confirmProps: { color, loading: false },
          }),
      );
    },
  });
}

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select, textarea';

/**
 * Once a confirmed change is in: if it removed the element that opened the dialog (`opener`), the
 * focus goes to the same action's button in the row now at that row's place (the one before it
 * when the last row left), else that row's first control, else the page's main region — never
 * the page's body, where a keyboard or screen-reader user would start over. If the opener is
 * still there, Mantine gives the focus back to it; if the person has moved on, it stays.
 */
function focusNearOpener(opener: Element | null): () => void {
  const row = opener?.closest('tr') ?? null;
  const rows = row?.parentElement ?? null;
  const index = row !== null && rows !== null ? [...rows.children].indexOf(row) : -1;
  const label = opener?.getAttribute('aria-label') ?? '';
  // "Remove Ada Lovelace" → "Remove": the same action, named for the next row.
  const verb = label.includes(' ') ? label.slice(0, label.indexOf(' ') + 1) : null;
  return () =>
    window.requestAnimationFrame(() => {
      if (opener === null || opener.isConnected) return;
      const now = document.activeElement;
      const lost = now === null || now === document.body || now.closest('[role="dialog"]');
      if (!lost) return;
      const left = rows?.isConnected ? [...rows.children] : [];
      const near = index >= 0 ? left[Math.min(index, left.length - 1)] : undefined;
      const controls = near ? [...near.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
      const target =
        controls.find((c) => verb !== null && c.getAttribute('aria-label')?.startsWith(verb)) ??
        controls[0] ??
        document.getElementById('main');
      target?.focus();
    });
}

/**
 * A button that asks before it acts: a click opens `confirmAction(confirm)`. How it looks (its
 * variant, colour, size) is the caller's, as on any `Button`.
 */
export function ConfirmButton({
  confirm,
  children,
  ...button
}: Omit<ButtonProps, 'children'> & {
  variant?: ButtonVariant;
  'aria-label'?: string;
  confirm: ConfirmOptions;
  children: ReactNode;
}) {
  return (
    <Button {...button} onClick={() => confirmAction(confirm)}>
      {children}
    </Button>
  );
}
