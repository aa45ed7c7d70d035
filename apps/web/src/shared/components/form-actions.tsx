import { Button, Group, type MantineColor } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A dialog form's foot: Cancel, then the submit button, busy while the request runs. The form's
 * own `onSubmit` does the work, so Enter in a field submits as the button does.
 */
export function FormActions({
  onCancel,
  submitLabel,
  pending,
  color,
}: {
  onCancel: () => void;
  submitLabel: ReactNode;
  pending: boolean;
  color?: MantineColor;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" color={color} loading={pending}>
        {submitLabel}
      </Button>
    </Group>
  );
}
