import type { NotificationPreferenceSet } from '@interlock/api-client';
import {
  Alert,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import {
  browserNotificationsOn,
  browserNotificationsSupported,
  turnOffBrowserNotifications,
  turnOnBrowserNotifications,
} from '@/shared/preferences/browser-notifications';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import {
  useNotificationDeliveries,
  useNotificationPreferences,
  useNotificationSettings,
  useUpdateNotificationPreferences,
  useUpdateNotificationSettings,
} from '../api/notifications.queries';
import { NotificationDeliveriesTable } from '../components/deliveries-table';
import { PreferencesTable } from '../components/preferences-table';
import { SlackPanel } from '../components/slack-panel';

function timeZones(): string[] {
  const supported =
    (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.(
      'timeZone',
    ) ?? [];
  return supported.includes('UTC') ? supported : ['UTC', ...supported];
}

/** Settings → Notifications (issue 30): your preferences, the organisation's defaults, and Recent. */
export function NotificationsRoute() {
  const canManage = useCan('member.manage');
  const canConnectSlack = useCan('webhook.manage');
  const preferences = useNotificationPreferences();
  const settings = useNotificationSettings();
  const [scope, setScope] = useState<'mine' | 'organisation'>('mine');
  const deliveries = useNotificationDeliveries(scope);
  const savePreferences = useUpdateNotificationPreferences();
  const saveDefaults = useUpdateNotificationSettings();
  const [own, setOwn] = useState<NotificationPreferenceSet>({});
  const [timeZone, setTimeZone] = useState('UTC');
  const [defaults, setDefaults] = useState<NotificationPreferenceSet>({});
  const zones = useMemo(timeZones, []);
  const [browserOn, setBrowserOn] = useState(browserNotificationsOn);

  useEffect(() => {
    if (preferences.data) {
      setOwn(preferences.data.preferences);
      setTimeZone(preferences.data.timeZone);
    }
  }, [preferences.data]);
  useEffect(() => {
    if (settings.data) setDefaults(settings.data.defaults);
  }, [settings.data]);

  if (preferences.isPending || settings.isPending)
    return <CenteredLoader label="Loading notification settings" />;
  if (preferences.isError)
    return (
      <QueryError
        error={preferences.error}
        title="Could not load your preferences"
        onRetry={() => void preferences.refetch()}
      />
    );
  if (settings.isError)
    return (
      <QueryError
        error={settings.error}
        title="Could not load the organisation's defaults"
        onRetry={() => void settings.refetch()}
      />
    );
  // What applies where a member chose nothing: the organisation's default, else the built-in one.
  const organisationEffective = Object.fromEntries(
    Object.entries(preferences.data.effective).map(([kind]) => [
      kind,
      {
        ...settings.data.builtInDefaults[kind as keyof NotificationPreferenceSet],
        ...settings.data.defaults[kind as keyof NotificationPreferenceSet],
      },
    ]),
  ) as NotificationPreferenceSet;

  return (
    <>
      <PageHeader
        title="Notifications"
        description="How Interlock tells you that something waits for you, in this organisation."
      />
      <Stack maw={900}>
        {!preferences.data.emailEnabled && (
          <Alert color="yellow" title="Email is off">
            This Interlock has no SMTP server configured (SMTP_URL): email notifications are written
            to the service's log instead of being sent.
          </Alert>
        )}
        <Paper withBorder p="lg">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              savePreferences.mutate({ timeZone, preferences: own });
            }}
          >
            <Stack>
              <Title order={3} size="h4">
                Your preferences
              </Title>
              <PreferencesTable
                value={own}
                fallback={organisationEffective}
                onChange={setOwn}
                fallbackLabel="Default"
              />
              <Select
                label="Your time zone"
                description="The daily digest leaves at 09:00 here; the hourly one at each full hour."
                searchable
                data={zones}
                value={timeZone}
                onChange={(zone) => zone !== null && setTimeZone(zone)}
                maw={320}
              />
              {browserNotificationsSupported() && (
                <Group>
                  <Text size="sm">
                    {browserOn
                      ? 'Browser notifications are on in this browser (shown while Interlock is in a background tab).'
                      : 'Browser notifications are off in this browser.'}
                  </Text>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => {
                      if (browserOn) {
                        turnOffBrowserNotifications();
                        setBrowserOn(false);
                      } else void turnOnBrowserNotifications().then(setBrowserOn);
                    }}
                  >
                    {browserOn ? 'Turn off in this browser' : 'Turn on in this browser'}
                  </Button>
                </Group>
              )}
              <SaveFoot saving={savePreferences} label="Save preferences" />
            </Stack>
          </form>
        </Paper>
        {canManage && (
          <Paper withBorder p="lg">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                saveDefaults.mutate({ defaults });
              }}
            >
              <Stack>
                <Title order={3} size="h4">
                  Organisation defaults
                </Title>
                <Text size="sm" c="dimmed">
                  What applies to every member who has not chosen otherwise.
                </Text>
                <PreferencesTable
                  value={defaults}
                  fallback={settings.data.builtInDefaults}
                  onChange={setDefaults}
                  fallbackLabel="Built-in"
                  labelPrefix="Organisation default, "
                />
                <Switch
                  label="Email links decide without signing in"
                  description="Each Approve / Reject link in an email then works once, for the member it was sent to, for 24 hours — so a reviewer can decide from a phone. Off: the links open a page where a signed-in member confirms."
                  checked={settings.data.tokenActions}
                  disabled={saveDefaults.isPending}
                  onChange={(event) =>
                    saveDefaults.mutate({ tokenActions: event.currentTarget.checked })
                  }
                />
                <SaveFoot saving={saveDefaults} label="Save defaults" />
              </Stack>
            </form>
          </Paper>
        )}
        <SlackPanel canManage={canConnectSlack} />
        <Paper withBorder p="lg">
          <Stack>
            <Group justify="space-between">
              <Title order={3} size="h4">
                Recent
              </Title>
              {canManage && (
                <SegmentedControl
                  size="xs"
                  value={scope}
                  onChange={(v) => setScope(v as 'mine' | 'organisation')}
                  data={[
                    { value: 'mine', label: 'Mine' },
                    { value: 'organisation', label: 'Everyone' },
                  ]}
                />
              )}
            </Group>
            {deliveries.isPending ? (
              <CenteredLoader label="Loading recent notifications" />
            ) : deliveries.isError ? (
              <QueryError
                error={deliveries.error}
                title="Could not load recent notifications"
                onRetry={() => void deliveries.refetch()}
              />
            ) : (
              <>
                <NotificationDeliveriesTable
                  deliveries={deliveries.data.pages.flatMap((page) => page.deliveries)}
                  showRecipient={scope === 'organisation'}
                />
                {deliveries.hasNextPage && (
                  <Group>
                    <Button
                      variant="default"
                      size="xs"
                      loading={deliveries.isFetchingNextPage}
                      onClick={() => void deliveries.fetchNextPage()}
                    >
                      Load older
                    </Button>
                  </Group>
                )}
              </>
            )}
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}

/** A settings form's foot: the API's refusal, the submit button, and "Saved." once it is. */
function SaveFoot({
  saving,
  label,
}: {
  saving: { error: unknown; isPending: boolean; isSuccess: boolean };
  label: string;
}) {
  return (
    <>
      <FormError error={saving.error} />
      <Group>
        <Button type="submit" loading={saving.isPending}>
          {label}
        </Button>
        {saving.isSuccess && !saving.isPending && (
          <Text size="sm" c="green">
            Saved.
          </Text>
        )}
      </Group>
    </>
  );
}
