import { Code, CopyButton, Button, Group, Stack, Text } from '@mantine/core';
import { installCommands, useDownloads } from '../downloads/downloads.queries';

/**
 * The agent of the README's "The first five minutes", verbatim (a test holds them equal, and the
 * SDK's package test runs the README's block against a live service): it opens an interrupt and
 * waits for the decision.
 */
export const AGENT_SCRIPT = `import { Interlock } from '@interlock/sdk';

const client = new Interlock(); // INTERLOCK_BASE_URL defaults to http://localhost:3000
const it = await client.interrupts.create({ title: 'Send the refund?', actionRequests: [{ name: 'refund', args: { amount: 40 } }] });
console.log('Waiting for a decision in the inbox…');
const answered = await client.interrupts.waitForAnswer(it.id);
console.log(JSON.stringify(answered.decisions, null, 2));
`;

/**
 * The shell lines before the script: install the SDK from this server when it serves the
 * package (else how to build it), the key, and this server's address — so they work from any
 * machine that reaches `origin`, not only the one running the service.
 */
export function setupCommands(origin: string, npmInstall: string | undefined): string {
  return [
    npmInstall ??
      '# This server offers no SDK package: build it from the repository (npx nx run sdk-ts:build), see the README',
    'export INTERLOCK_API_KEY=ilk_…   # your key (Integrations → Api Keys)',
    `export INTERLOCK_BASE_URL=${origin}`,
    'node agent.mjs                   # agent.mjs: the code below',
  ].join('\n');
}

function Block({ label, code, copyLabel }: { label: string; code: string; copyLabel: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="xs" fw={500}>
          {label}
        </Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} aria-label={copyLabel}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {code}
      </Code>
    </Stack>
  );
}

/**
 * What an agent needs, to copy: by default the README's first agent — the commands (install from
 * this server, the key, this server's address) and `agent.mjs`. With `code`, just that code.
 */
export function AgentSnippet({
  intro,
  code,
  origin = window.location.origin,
}: {
  intro?: string;
  code?: string;
  origin?: string;
}) {
  const downloads = useDownloads();
  const npm = installCommands(origin, downloads.data ?? []).npm;
  return (
    <Stack gap="xs" w="100%" ta="left">
      {intro !== undefined && <Text size="sm">{intro}</Text>}
      {code === undefined ? (
        <>
          <Block
            label="Commands to run the agent"
            code={setupCommands(origin, npm)}
            copyLabel="Copy the commands"
          />
          <Block
            label="Agent code using the TypeScript SDK (agent.mjs)"
            code={AGENT_SCRIPT}
            copyLabel="Copy the snippet"
          />
        </>
      ) : (
        <Block
          label="Agent code using the TypeScript SDK"
          code={code}
          copyLabel="Copy the snippet"
        />
      )}
    </Stack>
  );
}
