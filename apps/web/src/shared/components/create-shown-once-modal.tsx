import { Modal, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { whenSettled } from '../utils/when-settled';
import { FormActions } from './form-actions';
import { FormError } from './form-error';

/** What the dialog reads of the mutation that creates. */
interface Creating<TBody, TCreated> {
  mutateAsync: (body: TBody) => Promise<TCreated>;
  reset: () => void;
  error: unknown;
  isPending: boolean;
}

/**
 * A dialog that creates something from a form (its fields as `children`), then shows what only
 * the creating answer carries — a key, a signing secret — until Done. It cannot be dismissed by a
 * click outside while that is shown; closing it forgets the answer, the form and the error.
 */
export function CreateShownOnceModal<TValues, TBody, TCreated>({
  opened,
  onClose,
  form,
  create,
  body,
  title,
  shownTitle,
  submitLabel,
  shown,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  form: UseFormReturnType<TValues>;
  create: Creating<TBody, TCreated>;
  /** The request's body, from the form's values. */
  body: (values: TValues) => TBody;
  title: string;
  shownTitle: string;
  submitLabel: string;
  /** What is shown once; its Done calls `done`. */
  shown: (created: TCreated, done: () => void) => ReactNode;
  children: ReactNode;
}) {
  const [created, setCreated] = useState<TCreated | null>(null);
  const close = () => {
    setCreated(null);
    form.reset();
    create.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created !== null ? shownTitle : title}
      size="lg"
      closeOnClickOutside={created === null}
    >
      {created !== null ? (
        shown(created, close)
      ) : (
        <form
          onSubmit={form.onSubmit((values) =>
            whenSettled(create.mutateAsync(body(values)), (answer) => setCreated(() => answer)),
          )}
        >
          <Stack>
            {children}
            <FormError error={create.error} />
            <FormActions onCancel={close} pending={create.isPending} submitLabel={submitLabel} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
