import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useLocation } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import { useMe } from '@/shared/sign-in/me.queries';
import { providerPage, rememberSsoLink, rememberSsoNext } from '@/shared/sign-in/sso-next';
import { whenSettled } from '@/shared/utils/when-settled';
import { useLinkSingleSignOn, useMySingleSignOn } from '../api/account.queries';

/**
 * Settings → Security's single sign-on (SPEC §8f): each organisation of the person's whose
 * identity provider signs in their address — linked since when, or a button that links it: the
 * browser goes to the provider and comes back here, its password session kept. Shown only to
 * people whose address such a provider signs in.
 */
export function SingleSignOn() {
  const sso = useMySingleSignOn();
  const me = useMe();
  const link = useLinkSingleSignOn();
  const { state } = useLocation();
  const linked = (state as { ssoLinked?: unknown } | null)?.ssoLinked;
  const organisations = sso.data?.organisations ?? [];
  if (sso.error === null && organisations.length === 0) return null;
  const email = me.data?.user.email;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sso-heading">
      <Stack gap="md">
        <Title order={2} size="h4" id="sso-heading">
          Single sign-on
        </Title>
        <Text size="sm" c="dimmed">
          Your organisation&apos;s identity provider can sign you in instead of your password.
          Linking takes you to its sign-in page and back here; you stay signed in with your
          password, and we email you when it is linked.
        </Text>
        {typeof linked === 'string' && (
          <Alert color="green" variant="light" role="status" p="xs">
            Single sign-on is linked: {linked}&apos;s identity provider now signs you in to {linked}
            .
          </Alert>
        )}
        {sso.error !== null && <QueryError error={sso.error} />}
        <FormError error={link.error} />
        {organisations.map((o) => (
          <Group
            key={o.organisationId}
            justify="space-between"
            wrap="wrap"
            role="group"
            aria-label={o.organisationName}
          >
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={500}>{o.organisationName}</Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {o.issuer}
              </Text>
            </Stack>
            {o.linkedAt !== null ? (
              <Group gap="xs">
                <Badge color="green" variant="light">
                  Linked
                </Badge>
                <Text size="sm">
                  <RelativeTime value={o.linkedAt} />
                </Text>
              </Group>
            ) : (
              <Button
                variant="light"
                disabled={email === undefined}
                loading={link.isPending || link.isSuccess}
                onClick={() =>
                  whenSettled(link.mutateAsync(email ?? ''), ({ authorizationUrl }) => {
                    rememberSsoNext('/settings/security');
                    rememberSsoLink(o.organisationName);
                    providerPage.open(authorizationUrl);
                  })
                }
              >
                Link single sign-on
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
