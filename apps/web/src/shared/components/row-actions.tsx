import { Button, Group } from '@mantine/core';

/**
 * One of a row's actions: its word on the button, `danger` for one that removes or revokes;
 * `false` for one not offered.
 */
export type RowAction = { label: string; onClick: () => void; danger?: boolean } | false;

/**
 * A list row's actions at its end: small buttons named for the row (`Rename ci-key`, where `of`
 * is `ci-key`), a dangerous one in red; nothing when none is offered.
 */
export function RowActions({ of, actions }: { of: string; actions: RowAction[] }) {
  const offered = actions.filter((action) => action !== false);
  if (offered.length === 0) return null;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {offered.map(({ label, onClick, danger = false }) => (
        <Button
          key={label}
          size="xs"
          variant={danger ? 'light' : 'default'}
          color={danger ? 'red' : undefined}
          onClick={onClick}
          aria-label={`${label} ${of}`}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}
