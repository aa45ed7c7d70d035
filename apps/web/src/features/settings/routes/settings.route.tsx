import { Paper, Stack, Switch, Text } from '@mantine/core';
import { PageHeader } from '../../../shared/components/page-header';
import { useShortcutsEnabled } from '../../../shared/preferences/preferences';

/** Preferences of this browser. */
export function SettingsRoute() {
  const [shortcuts, setShortcuts] = useShortcutsEnabled();
  return (
    <>
      <PageHeader title="Settings" description="Preferences for this browser." />
      <Paper withBorder p="lg" maw={640}>
        <Stack gap="xs">
          <Switch
            checked={shortcuts}
            onChange={(event) => setShortcuts(event.currentTarget.checked)}
            label="Single-key keyboard shortcuts"
            description="In the inbox: j and k move, Enter opens, a approves, r rejects (asks for a reason), e edits. Turn them off if you use speech input or a screen reader's single-key navigation."
          />
          <Text size="xs" c="dimmed">
            Saved in this browser only.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
