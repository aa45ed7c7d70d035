import type {
  PutSsoConnectionDto,
  SsoDomainResponse,
  SsoSettingsResponse,
} from '@interlock/api-client';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { ConfirmButton, confirmAction } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useRoles } from '@/shared/directory/directory.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { whenSettled } from '@/shared/utils/when-settled';
import {
  useDeleteSsoSettings,
  usePutSsoRequirement,
  usePutSsoSettings,
  useSsoSettings,
  useVerifySsoDomain,
} from '../api/organisation.queries';

/**
 * Organisation → Single sign-on (SPEC §8f): the organisation's OpenID provider. The secret is sent,
 * never shown; the API reads the provider's discovery document before saving, and its exact
 * refusal (a mistyped issuer, a domain another organisation holds) shows under the form.
 */
export function SsoSettingsRoute() {
  const settings = useSsoSettings();
  if (settings.isError)
    return <QueryError error={settings.error} onRetry={() => void settings.refetch()} />;
  if (settings.isPending) return <CenteredLoader label="Loading single sign-on" />;
  const { connection } = settings.data;
  return (
    <>
      <PageHeader
        title="Single sign-on"
        description="Your people sign in with your company's identity provider (OpenID Connect): on the sign-in page they choose Sign in with single sign-on and enter their work address. Someone signing in for the first time joins this organisation with the role you choose."
      />
      <Stack gap="lg" maw={720}>
        <Paper withBorder p="lg">
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={2} size="h4">
                Provider
              </Title>
              {connection === null ? (
                <Badge color="gray" variant="light">
                  Not connected
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  Connected
                </Badge>
              )}
            </Group>
            {connection !== null && (
              <Text size="sm" c="dimmed">
                Connected <RelativeTime value={connection.createdAt} />, last changed{' '}
                <RelativeTime value={connection.updatedAt} />.
              </Text>
            )}
            <RedirectUri uri={settings.data.redirectUri} />
          </Stack>
        </Paper>
        {connection !== null && (
          <Paper withBorder p="lg">
            <Domains domains={connection.domains} />
          </Paper>
        )}
        {connection !== null && (
          <Paper withBorder p="lg">
            <RequireSso requireSso={connection.requireSso} verifiedAt={connection.verifiedAt} />
          </Paper>
        )}
        <Paper withBorder p="lg">
          {/* A fresh form whenever the saved connection changes (saved here or elsewhere). */}
          <ConnectionForm key={connection?.updatedAt ?? 'none'} settings={settings.data} />
        </Paper>
      </Stack>
    </>
  );
}

/**
 * "Require single sign-on": password sign-in stops acting for the organisation (Owners keep it
 * as the audited break-glass path). Turning it on asks first, saying exactly who is affected;
 * it can only be turned on once the provider has signed someone in.
 */
function RequireSso({
  requireSso,
  verifiedAt,
}: {
  requireSso: boolean;
  verifiedAt: string | null;
}) {
  const change = usePutSsoRequirement();
  const turnOn = () =>
    confirmAction({
      title: 'Require single sign-on?',
      body: (
        <Stack gap="xs">
          <Text size="sm">
            Members can no longer sign in to this organisation with a password: they choose Sign in
            with single sign-on. Anyone signed in with a password is stopped at their next click,
            and invitations are accepted by signing in with single sign-on.
          </Text>
          <Text size="sm">
            Owners keep their password as a break-glass path, should your identity provider fail;
            every such sign-in is recorded in the audit log. API keys keep working.
          </Text>
        </Stack>
      ),
      confirmLabel: 'Require single sign-on',
      onConfirm: () =>
        change.mutateAsync(true).then(() => notifySuccess('Single sign-on is now required')),
    });
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Require single sign-on
      </Title>
      <Switch
        label="Members sign in with single sign-on only"
        description={
          verifiedAt === null
            ? 'Sign in with single sign-on once yourself (sign out, then Sign in with single sign-on) so Interlock knows your provider works; then you can require it.'
            : 'Password sign-in no longer works for this organisation, except for Owners (break-glass, recorded in the audit log). API keys are not affected.'
        }
        checked={requireSso}
        disabled={change.isPending || (verifiedAt === null && !requireSso)}
        onChange={(event) => {
          if (event.currentTarget.checked) turnOn();
          else
            whenSettled(change.mutateAsync(false), () =>
              notifySuccess('Single sign-on is no longer required'),
            );
        }}
      />
      {verifiedAt !== null && (
        <Text size="xs" c="dimmed">
          First signed someone in <RelativeTime value={verifiedAt} />.
        </Text>
      )}
      <FormError error={change.error} />
    </Stack>
  );
}

/**
 * The email domains and their DNS proof (SPEC §8f): each shows its status, the TXT record to
 * publish (copyable) and a Verify button; the API's refusal shows word for word.
 */
function Domains({ domains }: { domains: SsoDomainResponse[] }) {
  const verify = useVerifySsoDomain();
  const pending = verify.isPending ? verify.variables : undefined;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Email domains
      </Title>
      <Text size="sm" c="dimmed">
        Prove each domain is your organisation&apos;s: publish the TXT record below in its DNS, then
        choose Verify. Until a domain is verified, nobody at it signs in with single sign-on.
      </Text>
      {domains.map((d) => (
        <Stack key={d.domain} gap={4} role="group" aria-label={d.domain}>
          <Group justify="space-between">
            <Text fw={500}>{d.domain}</Text>
            {d.verifiedAt === null ? (
              <Badge color="yellow" variant="light">
                Not verified
              </Badge>
            ) : (
              <Badge color="green" variant="light">
                Verified
              </Badge>
            )}
          </Group>
          {d.verifiedAt === null ? (
            <>
              <CopyableValue label="TXT record name" value={d.recordName} />
              <CopyableValue label="TXT record value" value={d.recordValue} />
              <Group>
                <Button
                  size="xs"
                  loading={pending === d.domain}
                  disabled={verify.isPending}
                  onClick={() =>
                    whenSettled(verify.mutateAsync(d.domain), () =>
                      notifySuccess(`${d.domain} verified`),
                    )
                  }
                >
                  Verify {d.domain}
                </Button>
              </Group>
            </>
          ) : d.failedChecks > 0 ? (
            <>
              <Alert color="yellow" variant="light" p="xs">
                Its TXT record was not found at the last {d.failedChecks} periodic look-up
                {d.failedChecks === 1 ? '' : 's'}: publish it again, or the domain stops being
                verified and nobody at it signs in with single sign-on.
              </Alert>
              <CopyableValue label="TXT record name" value={d.recordName} />
              <CopyableValue label="TXT record value" value={d.recordValue} />
            </>
          ) : (
            <Text size="xs" c="dimmed">
              Verified <RelativeTime value={d.verifiedAt} />
              {d.lastCheckedAt !== null && (
                <>
                  ; its record was last found <RelativeTime value={d.lastCheckedAt} />
                </>
              )}
              .
            </Text>
          )}
        </Stack>
      ))}
      <FormError error={verify.error} />
    </Stack>
  );
}

function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code style={{ overflowWrap: 'anywhere' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant="default"
              onClick={copy}
              aria-label={`Copy ${label.toLowerCase()}`}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function RedirectUri({ uri }: { uri: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Redirect URI
      </Text>
      <Text size="sm" c="dimmed">
        Register this address with your provider as the application&apos;s redirect (callback) URI.
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code style={{ overflowWrap: 'anywhere' }} data-testid="sso-redirect-uri">
          {uri}
        </Code>
        <CopyButton value={uri}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

interface Draft {
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedDomains: string[];
  defaultRoleId: string | null;
}

function ConnectionForm({ settings }: { settings: SsoSettingsResponse }) {
  const { connection } = settings;
  const connected = connection !== null;
  const roles = useRoles();
  const save = usePutSsoSettings();
  const remove = useDeleteSsoSettings();
  const form = useForm<Draft>({
    initialValues: {
      issuer: connection?.issuer ?? '',
      clientId: connection?.clientId ?? '',
      clientSecret: '',
      allowedDomains: connection?.allowedDomains ?? [],
      defaultRoleId: connection?.defaultRoleId ?? null,
    },
    validate: {
      issuer: (v) => (v.trim() === '' ? "Enter your provider's issuer URL" : null),
      clientId: (v) => (v.trim() === '' ? 'Enter the client ID your provider gave you' : null),
      clientSecret: (v) =>
        !connected && v === '' ? 'Enter the client secret your provider gave you' : null,
      allowedDomains: (v) => (v.length === 0 ? 'Add at least one email domain' : null),
      defaultRoleId: (v) => (v === null ? 'Choose the role new members get' : null),
    },
  });
  // Single sign-on never makes Owners (the API refuses it too).
  const roleOptions = (roles.data ?? [])
    .filter((role) => role.builtIn !== 'owner')
    .map((role) => ({ value: role.id, label: role.name }));
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        const body: PutSsoConnectionDto = {
          issuer: values.issuer.trim(),
          clientId: values.clientId.trim(),
          allowedDomains: values.allowedDomains.map((d) => d.trim().toLowerCase()),
          defaultRoleId: values.defaultRoleId ?? '',
          ...(values.clientSecret === '' ? {} : { clientSecret: values.clientSecret }),
        };
        whenSettled(save.mutateAsync(body), () =>
          notifySuccess(connected ? 'Single sign-on saved' : 'Single sign-on connected'),
        );
      })}
    >
      <Stack gap="md">
        <Title order={2} size="h4">
          {connected ? 'Connection' : 'Connect a provider'}
        </Title>
        <TextInput
          label="Issuer URL"
          description="Your provider's issuer, as its discovery document names it (Interlock reads <issuer>/.well-known/openid-configuration when you save)."
          placeholder="https://login.example.com/realms/acme"
          required
          {...form.getInputProps('issuer')}
        />
        <TextInput label="Client ID" required {...form.getInputProps('clientId')} />
        <PasswordInput
          label="Client secret"
          description={
            connected
              ? 'Saved, and never shown again. Leave empty to keep it; enter a new one to replace it.'
              : 'Stored encrypted and never shown again.'
          }
          autoComplete="off"
          required={!connected}
          {...form.getInputProps('clientSecret')}
        />
        <TagsInput
          label="Email domains"
          description="People with an address at these domains sign in with this provider once you verify each domain by DNS (press Enter after each). A domain another organisation has verified, or a public one such as gmail.com, cannot be added."
          placeholder="example.com"
          splitChars={[',', ' ']}
          maxTags={20}
          withAsterisk
          {...form.getInputProps('allowedDomains')}
        />
        <Select
          label="Role for new members"
          description="Someone whose first sign-in makes them a member gets this role. Not Owner, and no permission you do not hold yourself."
          placeholder={roles.isPending ? 'Loading roles…' : 'Choose a role'}
          data={roleOptions}
          allowDeselect={false}
          withAsterisk
          {...form.getInputProps('defaultRoleId')}
        />
        <FormError error={save.error ?? roles.error} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {connected ? 'Save changes' : 'Connect provider'}
          </Button>
          {connected && (
            <ConfirmButton
              variant="default"
              color="red"
              confirm={{
                title: 'Disconnect single sign-on?',
                body: 'Your people can no longer sign in with your identity provider. Those it made accounts for sign in with a password, once they set one with Forgot your password. Sessions it made end at their time.',
                confirmLabel: 'Disconnect',
                onConfirm: () =>
                  remove.mutateAsync().then(() => notifySuccess('Single sign-on disconnected')),
              }}
            >
              Disconnect
            </ConfirmButton>
          )}
        </Group>
      </Stack>
    </form>
  );
}
