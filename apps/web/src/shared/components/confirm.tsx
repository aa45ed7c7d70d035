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
 * focus, so Enter never confirms by accident; Escape or a click outside cancels.
 */
export function confirmAction({
  title,
  body,
  confirmLabel,
  danger = true,
  onConfirm,
}: ConfirmOptions): void {
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
        () => modals.close(id),
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
