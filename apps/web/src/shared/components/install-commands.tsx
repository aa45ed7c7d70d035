import { Code, CopyButton, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { installCommands, useDownloads } from '../downloads/downloads.queries';

function Command({ label, code }: { label: string; code: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy: ${label}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap' }}>
        {code}
      </Code>
    </Stack>
  );
}

/** How to install the SDKs and the MCP server from this server (`/downloads/…`). */
export function InstallCommandsPanel({ origin = window.location.origin }: { origin?: string }) {
  const downloads = useDownloads();
  if (downloads.isPending) return null;
  const commands = installCommands(origin, downloads.data ?? []);
  const none =
    commands.npm === undefined && commands.pip === undefined && commands.mcp === undefined;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Install from this server
        </Title>
        {none ? (
          <Text size="sm" c="dimmed">
            This server has no built packages to offer. An operator builds them with{' '}
            <Code>node tools/scripts/build-downloads.mjs</Code> (npm start does it); the README
            shows how to build the SDKs from source.
          </Text>
        ) : (
          <>
            {commands.npm !== undefined && (
              <Command label="TypeScript / JavaScript SDK" code={commands.npm} />
            )}
            {commands.pip !== undefined && <Command label="Python SDK" code={commands.pip} />}
            {commands.mcp !== undefined && (
              <Command label="MCP server (client configuration)" code={commands.mcp} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
