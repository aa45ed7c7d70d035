import type { ApiKeyResponse } from '@interlock/api-client';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { AgentSnippet } from '@/shared/components/agent-snippet';
import { InstallCommandsPanel } from '@/shared/components/install-commands';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { EmptyHint } from '@/shared/components/empty-hint';
import { IntegrationsTabs } from '@/shared/components/integrations-tabs';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { GettingStarted } from '@/shared/onboarding/getting-started';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { useApiKeys } from '../api/api-keys.queries';
import { ApiKeysTable } from '../components/api-keys-table';
import { CreateApiKeyModal } from '../components/create-api-key-modal';
import { RenameApiKeyModal } from '../components/rename-api-key-modal';
import { useConfirmRevokeApiKey } from '../components/confirm-revoke-api-key';

/** Integrations → Api Keys: the organisation's keys for agents. */
export function ApiKeysRoute() {
  const keys = useApiKeys();
  const canCreate = useCan('apiKey.create');
  const canRename = useCan('apiKey.update');
  const canRevoke = useCan('apiKey.delete');
  const canRead = useCan('apiKey.read');
  const canWebhooks = useCan('webhook.manage');
  const [params, setParams] = useSearchParams();
  const welcome = params.get('welcome') === '1';
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ApiKeyResponse | null>(null);
  const confirmRevoke = useConfirmRevokeApiKey();

  // Integrations opens here; a member who manages webhooks but may not read keys goes there.
  if (!canRead && canWebhooks) return <Navigate to="/integrations/webhooks" replace />;
  return (
    <>
      <PageHeader
        title="Integrations"
        description="Agents authenticate with organisation API keys sent in the x-api-key header. A key carries no role: any valid key can open interrupts and sessions for this organisation."
        actions={
          canCreate && (
            <Button onClick={() => setCreating(true)} data-autofocus>
              Create API key
            </Button>
          )
        }
      />
      <GettingStarted
        here="api-keys"
        force={welcome}
        onDismiss={() => setParams({}, { replace: true })}
      />
      <IntegrationsTabs active="api-keys">
        {keys.isPending ? (
          <CenteredLoader label="Loading API keys" />
        ) : keys.isError ? (
          <QueryError error={keys.error} onRetry={() => void keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <Paper withBorder p="lg">
            <EmptyHint title="No API keys yet">
              <Stack align="center" gap="sm">
                <Text size="sm" c="dimmed">
                  {canCreate
                    ? 'Create a key for your agent, then give it these lines:'
                    : 'Ask a Developer or Owner to create a key for your agent. It then needs these lines:'}
                </Text>
                <AgentSnippet />
              </Stack>
            </EmptyHint>
          </Paper>
        ) : (
          <Stack>
            <Paper withBorder>
              <ApiKeysTable
                apiKeys={keys.data}
                canRename={canRename}
                canRevoke={canRevoke}
                onRename={setRenaming}
                onRevoke={confirmRevoke}
              />
            </Paper>
            {welcome && (
              <AgentSnippet intro="Your agent needs these lines, with the key in INTERLOCK_API_KEY:" />
            )}
          </Stack>
        )}
      </IntegrationsTabs>
      <InstallCommandsPanel />
      {canCreate && <CreateApiKeyModal opened={creating} onClose={() => setCreating(false)} />}
      <RenameApiKeyModal apiKey={renaming} onClose={() => setRenaming(null)} />
    </>
  );
}
