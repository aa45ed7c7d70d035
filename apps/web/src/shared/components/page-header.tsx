import { Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

/** The page's one h1, a sentence saying what the page is for, and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  useDocumentTitle(`${title} · Interlock`);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" wrap="wrap" gap="sm">
      <Stack gap={4} miw={0} style={{ flex: '1 1 18rem' }}>
        {/* A title of hundreds of characters stops after four lines (whole in its tooltip). */}
        <Title
          order={1}
          size="h2"
          lineClamp={4}
          title={title.length > 120 ? title : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {title}
        </Title>
        {description !== undefined && (
          <Text c="dimmed" size="sm" maw={720} style={{ overflowWrap: 'anywhere' }}>
            {description}
          </Text>
        )}
      </Stack>
      {actions !== undefined && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
