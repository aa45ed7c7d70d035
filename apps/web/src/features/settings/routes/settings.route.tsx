import {
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { PageHeader } from '@/shared/components/page-header';
import { useNextAfterDecision, useShortcutsEnabled } from '@/shared/preferences/preferences';

/** Preferences of this browser. */
export function SettingsRoute() {
  const [shortcuts, setShortcuts] = useShortcutsEnabled();
  const [nextAfter, setNextAfter] = useNextAfterDecision();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <>
      <PageHeader title="Settings" description="Preferences for this browser." />
      <Paper withBorder p="lg" maw={640}>
        <Stack gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="appearance-label">
              Appearance
            </Text>
            <SegmentedControl
              aria-labelledby="appearance-label"
              value={colorScheme}
              onChange={(value) => setColorScheme(value as MantineColorScheme)}
              data={[
                { value: 'auto', label: 'Follow the system' },
                { value: 'light', label: 'Light' },
                { value: 'dark', label: 'Dark' },
              ]}
              maw={420}
            />
            <Text size="xs" c="dimmed">
              Follow the system uses your browser&apos;s light or dark preference, and changes with
              it.
            </Text>
          </Stack>
          <Switch
            checked={shortcuts}
            onChange={(event) => setShortcuts(event.currentTarget.checked)}
            label="Single-key keyboard shortcuts"
            description="In the inbox: j and k move, Enter opens, a approves (after showing the arguments; Enter confirms), z undoes an approval, r rejects (asks for a reason), e edits. On an interrupt's page, for the focused action: a approves, e edits, r rejects, s responds. Turn them off if you use speech input or a screen reader's single-key navigation."
          />
          <Switch
            checked={nextAfter}
            onChange={(event) => setNextAfter(event.currentTarget.checked)}
            label="Open the next interrupt after deciding"
            description="When your decision answers an interrupt, its page moves on to the next open one (the next in the inbox list you came from)."
          />
          <Text size="xs" c="dimmed">
            Saved in this browser only.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
