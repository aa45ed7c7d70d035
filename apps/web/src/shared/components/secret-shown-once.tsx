import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';

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
    <Stack>
      <Alert
        color="yellow"
        variant="light"
        title="This is the only time the secret is shown"
        role="alert"
      >
        Copy it now into your receiver&apos;s secret store and verify each delivery with it (the
        SDKs&apos; <code>webhooks.unwrap</code>). Interlock will not show it again; if you lose it,
        rotate it.{note === undefined ? '' : ` ${note}`}
      </Alert>
      <Text size="sm" fw={500} id="new-secret-label">
        {label}
      </Text>
      <Code block aria-labelledby="new-secret-label" style={{ wordBreak: 'break-all' }}>
        {secret}
      </Code>
      <Group justify="space-between">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button onClick={copy} color={copied ? 'teal' : 'blue'}>
              {copied ? 'Copied' : 'Copy secret'}
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
