import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../sign-in/sign-in-session.queries';

export type IntegrationsTab = 'api-keys' | 'webhooks';

/** The Integrations page's tabs (each its own route); a tab shows only to members who may use it. */
export function IntegrationsTabs({
  active,
  children,
}: {
  active: IntegrationsTab;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const canKeys = useCan('apiKey.read');
  const canWebhooks = useCan('webhook.manage');
  return (
    <Tabs
      value={active}
      keepMounted={false}
      onChange={(value) => value !== null && value !== active && navigate(`/integrations/${value}`)}
    >
      <Tabs.List aria-label="Integrations">
        {canKeys && <Tabs.Tab value="api-keys">Api Keys</Tabs.Tab>}
        {canWebhooks && <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>}
      </Tabs.List>
      <Tabs.Panel value={active} pt="md">
        {children}
      </Tabs.Panel>
    </Tabs>
  );
}
