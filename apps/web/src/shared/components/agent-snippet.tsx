import { Code, CopyButton, Button, Stack, Text } from '@mantine/core';

/** The three lines an agent needs (as in the README), with this service's address. */
export function agentSnippet(origin: string = window.location.origin): string {
  return [
    `// npm install ${origin}/downloads/… (Integrations → Api Keys shows the command)   ·   export INTERLOCK_API_KEY=ilk_…   INTERLOCK_BASE_URL=${origin}`,
    "import { Interlock } from '@interlock/sdk';",
    'const client = new Interlock();',
    "const interrupt = await client.interrupts.create({ title: 'Send the refund?', actionRequests: [{ name: 'refund', args: { amount: 40 } }] });",
    'const answered = await client.interrupts.waitForAnswer(interrupt.id); // decide it in the inbox meanwhile',
  ].join('\n');
}

/** The agent code to copy: by default, opening an interrupt and waiting for the answer. */
export function AgentSnippet({ intro, code = agentSnippet() }: { intro?: string; code?: string }) {
  return (
    <Stack gap="xs" w="100%" ta="left">
      {intro !== undefined && <Text size="sm">{intro}</Text>}
      <Code
        block
        aria-label="Agent code using the TypeScript SDK"
        style={{ whiteSpace: 'pre-wrap' }}
      >
        {code}
      </Code>
      <CopyButton value={code}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" onClick={copy} w="fit-content">
            {copied ? 'Copied' : 'Copy the snippet'}
          </Button>
        )}
      </CopyButton>
    </Stack>
  );
}
