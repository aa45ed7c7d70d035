import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A credential shown this once: the warning (what to do with it, as `children` say), the value
 * under its label, Copy and Done.
 */
export function ShownOnce({
  value,
  noun,
  label,
  labelId,
  testId,
  onDone,
  children,
}: {
  value: string;
  /** What it is, in the warning's title and on the copy button. */
  noun: 'key' | 'secret';
  label: string;
  /** The label's element id, which names the value. */
  labelId: string;
  testId?: string;
  onDone: () => void;
  children: ReactNode;
}) {
  return (
    <Stack>
      <Alert
        color="yellow"
        variant="light"
        title={`This is the only time the ${noun} is shown`}
        role="alert"
      >
        {children}
      </Alert>
      <Text size="sm" fw={500} id={labelId}>
        {label}
      </Text>
      <Code block aria-labelledby={labelId} data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Code>
      <Group justify="space-between">
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : 'blue'}>
              {copied ? 'Copied' : `Copy ${noun}`}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}

/** A signing secret, shown this once, with a copy button. */
export function SecretShownOnce({
  secret,
  label,
  onDone,
  note,
}: {
  secret: string;
  label: string;
  onDone: () => void;
  note?: string;
}) {
  return (
    <ShownOnce
      value={secret}
      noun="secret"
      label={label}
      labelId="new-secret-label"
      onDone={onDone}
    >
      Copy it now into your receiver&apos;s secret store and verify each delivery with it (the
      SDKs&apos; <code>webhooks.unwrap</code>). Interlock will not show it again; if you lose it,
      rotate it.{note === undefined ? '' : ` ${note}`}
    </ShownOnce>
  );
}
