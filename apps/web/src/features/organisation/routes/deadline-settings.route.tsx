import type { InterruptDeadlineSettingsResponse } from '@interlock/api-client';
import { Alert, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { DraftActions, useDraft } from '@/shared/components/draft-actions';
import { DurationInput } from '@/shared/components/duration-input';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { describeDuration } from '@/shared/utils/duration';
import { notifySuccess } from '@/shared/utils/notify';
import { useDeadlineSettings, useUpdateDeadlineSettings } from '../api/organisation.queries';
import { whenSettled } from '@/shared/utils/when-settled';

/** The draft is the settings themselves. */
const asIs = (settings: InterruptDeadlineSettingsResponse) => settings;

/** A default deadline to offer when none is set: one day. */
const SUGGESTED_DEFAULT = 86_400;

/** Settings → Deadlines (SPEC §8e): the organisation's bounds on how long an interrupt may wait. */
export function DeadlineSettingsRoute() {
  const canManage = useCan('classification.manage');
  const settings = useDeadlineSettings();
  const save = useUpdateDeadlineSettings();
  const [draft, setDraft] = useDraft(settings.data, asIs);
  const [lastDefault, setLastDefault] = useState(SUGGESTED_DEFAULT);

  if (settings.isError)
    return <QueryError error={settings.error} onRetry={() => void settings.refetch()} />;
  if (settings.isPending || draft === null)
    return <CenteredLoader label="Loading the deadline settings" />;
  const saved = settings.data;
  const changed =
    draft.defaultTimeoutSeconds !== saved.defaultTimeoutSeconds ||
    draft.maxTimeoutSeconds !== saved.maxTimeoutSeconds ||
    draft.approveOnTimeoutAllowed !== saved.approveOnTimeoutAllowed;
  const defaultTooLong =
    draft.defaultTimeoutSeconds !== null && draft.defaultTimeoutSeconds > draft.maxTimeoutSeconds;
  const tooLong = draft.maxTimeoutSeconds > 2_592_000;

  return (
    <>
      <PageHeader
        title="Deadlines"
        description="How long an interrupt may wait for a person. At its deadline Interlock decides every undecided action as the agent asked (reject unless it asked otherwise), as actor system, and tells the agent."
      />
      <Paper withBorder p="lg" maw={720}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            whenSettled(save.mutateAsync(draft), () => notifySuccess('Deadline settings saved'));
          }}
        >
          <Stack gap="lg">
            {!canManage && (
              <Alert variant="light" title="Read only">
                Changing these takes the classification.manage permission (the holders of argus's
                rules: both let Interlock decide without a person).
              </Alert>
            )}
            <Stack gap="xs">
              <Title order={2} size="h4">
                Default deadline
              </Title>
              <Switch
                label="Give interrupts a deadline when their agent sets none"
                checked={draft.defaultTimeoutSeconds !== null}
                disabled={!canManage}
                onChange={(event) =>
                  setDraft({
                    ...draft,
                    defaultTimeoutSeconds: event.currentTarget.checked
                      ? Math.min(lastDefault, draft.maxTimeoutSeconds)
                      : null,
                  })
                }
              />
              {draft.defaultTimeoutSeconds !== null && (
                <DurationInput
                  label="Default deadline"
                  seconds={draft.defaultTimeoutSeconds}
                  disabled={!canManage}
                  onChange={(seconds) => {
                    setLastDefault(seconds);
                    setDraft({ ...draft, defaultTimeoutSeconds: seconds });
                  }}
                />
              )}
              {defaultTooLong && (
                <Text size="sm" c="red" role="alert">
                  The default deadline must not be longer than the maximum.
                </Text>
              )}
            </Stack>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Maximum deadline
              </Title>
              <DurationInput
                label="Maximum deadline"
                description="The longest deadline an agent (timeoutSeconds) or a member (Extend) may set; at most 30 days. Deadlines already set stay as they are."
                seconds={draft.maxTimeoutSeconds}
                disabled={!canManage}
                onChange={(seconds) => setDraft({ ...draft, maxTimeoutSeconds: seconds })}
              />
              <Text size="xs" c="dimmed">
                Now: {describeDuration(saved.maxTimeoutSeconds)}.
              </Text>
              {tooLong && (
                <Text size="sm" c="red" role="alert">
                  The maximum deadline is at most 30 days.
                </Text>
              )}
            </Stack>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Approval at the deadline
              </Title>
              <Switch
                label="Let agents ask for approval at the deadline (onTimeout: approve)"
                description="For low-risk actions whose teams would rather proceed than wait. Off, such interrupts are refused when they open, and those already waiting are rejected at their deadline instead."
                checked={draft.approveOnTimeoutAllowed}
                disabled={!canManage}
                onChange={(event) =>
                  setDraft({ ...draft, approveOnTimeoutAllowed: event.currentTarget.checked })
                }
              />
            </Stack>
            <FormError error={save.error} />
            {canManage && (
              <DraftActions
                saveLabel="Save deadline settings"
                changed={changed}
                invalid={defaultTooLong || tooLong}
                saving={save.isPending}
                onDiscard={() => setDraft(saved)}
              />
            )}
          </Stack>
        </form>
      </Paper>
    </>
  );
}
