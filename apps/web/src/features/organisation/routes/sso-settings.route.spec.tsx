import type {
  RoleResponse,
  SsoConnectionResponse,
  SsoDomainResponse,
  SsoSettingsResponse,
} from '@interlock/api-client';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { SsoSettingsRoute } from './sso-settings.route';

const REDIRECT = 'https://interlock.example.com/sso/callback';
const OWNER = '5f0e7c1e-aaaa-4c1e-9a4e-0a0a0a0a0a01';
const DEVELOPER = '5f0e7c1e-bbbb-4c1e-9a4e-0a0a0a0a0a02';

function role(id: string, name: string, builtIn: RoleResponse['builtIn']): RoleResponse {
  return { id, name, builtIn, permissions: [], createdAt: '2026-11-01T00:00:00.000Z' };
}

const VERIFIED_DOMAIN: SsoDomainResponse = {
  domain: 'acme.example',
  verifiedAt: '2026-11-20T10:30:00.000Z',
  lastCheckedAt: null,
  failedChecks: 0,
  recordName: '_interlock-challenge.acme.example',
  recordValue: 'interlock-domain-verification=0123456789abcdef0123456789abcdef',
};

const CONNECTION: SsoConnectionResponse = {
  issuer: 'https://login.acme.example/realms/acme',
  clientId: 'interlock',
  allowedDomains: ['acme.example'],
  domains: [VERIFIED_DOMAIN],
  defaultRoleId: DEVELOPER,
  requireSso: false,
  verifiedAt: '2026-11-20T11:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

const CONNECTED: SsoSettingsResponse = {
  connection: CONNECTION,
  redirectUri: REDIRECT,
};

/** The service's SSO settings and roles, recording what the page sends. */
function serveSso(initial: SsoSettingsResponse) {
  let state = initial;
  const puts: unknown[] = [];
  let deletes = 0;
  server.use(
    http.get(`${API}/roles`, () =>
      HttpResponse.json({
        roles: [role(OWNER, 'Owner', 'owner'), role(DEVELOPER, 'Developer', 'developer')],
      }),
    ),
    http.get(`${API}/organisation/sso`, () => HttpResponse.json(state)),
    http.put(`${API}/organisation/sso`, async ({ request }) => {
      const body = (await request.json()) as {
        issuer: string;
        clientId: string;
        allowedDomains: string[];
        defaultRoleId: string;
      };
      puts.push(body);
      state = {
        redirectUri: REDIRECT,
        connection: {
          issuer: body.issuer,
          clientId: body.clientId,
          allowedDomains: body.allowedDomains,
          domains: body.allowedDomains.map((domain) => ({
            domain,
            verifiedAt: null,
            lastCheckedAt: null,
            failedChecks: 0,
            recordName: `_interlock-challenge.${domain}`,
            recordValue: `interlock-domain-verification=token-of-${domain}`,
          })),
          defaultRoleId: body.defaultRoleId,
          requireSso: false,
          verifiedAt: null,
          createdAt: '2026-11-27T08:00:00.000Z',
          updatedAt: '2026-11-27T08:00:00.000Z',
        },
      };
      return HttpResponse.json(state);
    }),
    http.delete(`${API}/organisation/sso`, () => {
      deletes += 1;
      state = { connection: null, redirectUri: REDIRECT };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { puts, deletes: () => deletes };
}

/** The text box of the domains' tags input (not its hidden field). */
const domainsBox = () =>
  screen
    .getAllByLabelText(/^Email domains/)
    .find((el) => el instanceof HTMLInputElement && el.type !== 'hidden') as HTMLElement;

/** Puts text into a field at once (typing key by key is slow on a loaded machine). */
async function fill(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

/** Adds a domain as a tag, as a person does: the text, then Enter. */
async function addDomain(domain: string) {
  await fill(domainsBox(), domain);
  await userEvent.keyboard('{Enter}');
}

async function chooseRole(name: string) {
  const input = screen
    .getAllByLabelText(/^Role for new members/)
    .find((el) => el.tagName === 'INPUT') as HTMLElement;
  await userEvent.click(input);
  await userEvent.click(await screen.findByRole('option', { name }));
}

describe('SsoSettingsRoute', () => {
  it('connects: shows the redirect URI to register, sends issuer, client, secret, lower-case domains and role, then shows it connected', async () => {
    const { puts } = serveSso({ connection: null, redirectUri: REDIRECT });
    renderWithApp(<SsoSettingsRoute />);
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    expect(screen.getByTestId('sso-redirect-uri')).toHaveTextContent(REDIRECT);
    await fill(screen.getByLabelText(/^Issuer URL/), ' https://login.acme.example ');
    await fill(screen.getByLabelText(/^Client ID/), 'interlock');
    await fill(screen.getByLabelText(/^Client secret/), 's3cret');
    await addDomain('Acme.example');
    await addDomain('acme.dev');
    // The Owner role is never offered: single sign-on does not make Owners.
    const input = screen
      .getAllByLabelText(/^Role for new members/)
      .find((el) => el.tagName === 'INPUT') as HTMLElement;
    await userEvent.click(input);
    expect(await screen.findByRole('option', { name: 'Developer' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Owner' })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'Developer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect provider' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      issuer: 'https://login.acme.example',
      clientId: 'interlock',
      clientSecret: 's3cret',
      allowedDomains: ['acme.example', 'acme.dev'],
      defaultRoleId: DEVELOPER,
    });
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeInTheDocument();
    // The secret is never shown back: the field is empty, and says how to keep it.
    expect(screen.getByLabelText(/^Client secret/)).toHaveValue('');
  });

  it('asks for what is missing before sending anything', async () => {
    const { puts } = serveSso({ connection: null, redirectUri: REDIRECT });
    renderWithApp(<SsoSettingsRoute />);
    await fill(await screen.findByLabelText(/^Issuer URL/), 'https://login.acme.example');
    await fill(screen.getByLabelText(/^Client ID/), 'interlock');
    await fill(screen.getByLabelText(/^Client secret/), 's3cret');
    await userEvent.click(screen.getByRole('button', { name: 'Connect provider' }));
    expect(await screen.findByText('Add at least one email domain')).toBeInTheDocument();
    expect(screen.getByText('Choose the role new members get')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });

  it("shows the API's refusal word for word (the provider's discovery failed) and keeps the form", async () => {
    serveSso({ connection: null, redirectUri: REDIRECT });
    const refusal =
      "Could not read the OpenID provider's configuration at https://login.acme.example/.well-known/openid-configuration: fetch failed";
    server.use(
      http.put(`${API}/organisation/sso`, () =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            code: 'SSO_DISCOVERY_FAILED',
            message: refusal,
          },
          { status: 400 },
        ),
      ),
    );
    renderWithApp(<SsoSettingsRoute />);
    await fill(await screen.findByLabelText(/^Issuer URL/), 'https://login.acme.example');
    await fill(screen.getByLabelText(/^Client ID/), 'interlock');
    await fill(screen.getByLabelText(/^Client secret/), 's3cret');
    await addDomain('acme.example');
    await chooseRole('Developer');
    await userEvent.click(screen.getByRole('button', { name: 'Connect provider' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByLabelText(/^Issuer URL/)).toHaveValue('https://login.acme.example');
    expect(screen.getByText('Not connected')).toBeInTheDocument();
  });

  it('changes a connection without resending the secret, and disconnects after confirming', async () => {
    const { puts, deletes } = serveSso(CONNECTED);
    renderWithApp(<SsoSettingsRoute />);
    const clientId = await screen.findByLabelText(/^Client ID/);
    expect(clientId).toHaveValue('interlock');
    expect(screen.getByLabelText(/^Issuer URL/)).toHaveValue(
      'https://login.acme.example/realms/acme',
    );
    await userEvent.clear(clientId);
    await userEvent.paste('interlock-2');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      issuer: 'https://login.acme.example/realms/acme',
      clientId: 'interlock-2',
      allowedDomains: ['acme.example'],
      defaultRoleId: DEVELOPER,
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect single sign-on?' });
    expect(deletes()).toBe(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(deletes()).toBe(1));
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect provider' })).toBeInTheDocument();
  });

  it('requires single sign-on only after a warning naming the break-glass path, and turns it off', async () => {
    serveSso(CONNECTED);
    const sent: unknown[] = [];
    let requireSso = false;
    server.use(
      http.put(`${API}/organisation/sso/requirement`, async ({ request }) => {
        const body = (await request.json()) as { requireSso: boolean };
        sent.push(body);
        requireSso = body.requireSso;
        return HttpResponse.json({
          ...CONNECTED,
          connection: { ...CONNECTION, requireSso },
        });
      }),
    );
    renderWithApp(<SsoSettingsRoute />);
    const toggle = await screen.findByRole('switch', {
      name: /Members sign in with single sign-on only/,
    });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Require single sign-on?' });
    expect(dialog).toHaveTextContent(/Owners keep their password as a break-glass path/);
    expect(dialog).toHaveTextContent(/every such sign-in is recorded in the audit log/);
    expect(sent).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Require single sign-on' }));
    await waitFor(() => expect(sent).toEqual([{ requireSso: true }]));
    await waitFor(() => expect(toggle).toBeChecked());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Off needs no confirmation: it only gives passwords back.
    await userEvent.click(toggle);
    await waitFor(() => expect(sent).toEqual([{ requireSso: true }, { requireSso: false }]));
    await waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('shows each domain with its TXT record to publish; Verify looks it up and shows the refusal word for word, then the domain verified', async () => {
    const pending: SsoDomainResponse = {
      domain: 'acme.dev',
      verifiedAt: null,
      lastCheckedAt: null,
      failedChecks: 0,
      recordName: '_interlock-challenge.acme.dev',
      recordValue: 'interlock-domain-verification=fedcba9876543210fedcba9876543210',
    };
    const domains = [VERIFIED_DOMAIN, pending];
    serveSso({ ...CONNECTED, connection: { ...CONNECTION, domains } });
    const refusal = `No TXT record interlock-domain-verification=… was found at _interlock-challenge.acme.dev: publish ${pending.recordValue} there, then verify again (DNS changes can take a while to show).`;
    const sent: unknown[] = [];
    server.use(
      http.post(`${API}/organisation/sso/domains/verify`, async ({ request }) => {
        sent.push(await request.json());
        if (sent.length === 1)
          return HttpResponse.json(
            { statusCode: 409, error: 'Conflict', code: 'DOMAIN_NOT_VERIFIED', message: refusal },
            { status: 409 },
          );
        return HttpResponse.json({
          ...CONNECTED,
          connection: {
            ...CONNECTION,
            domains: [VERIFIED_DOMAIN, { ...pending, verifiedAt: '2026-11-27T09:00:00.000Z' }],
          },
        });
      }),
    );
    renderWithApp(<SsoSettingsRoute />);
    const group = await screen.findByRole('group', { name: 'acme.dev' });
    expect(within(group).getByText('Not verified')).toBeInTheDocument();
    expect(within(group).getByText(pending.recordName)).toBeInTheDocument();
    expect(within(group).getByText(pending.recordValue)).toBeInTheDocument();
    expect(
      within(group).getByRole('button', { name: 'Copy txt record value' }),
    ).toBeInTheDocument();
    const verified = screen.getByRole('group', { name: 'acme.example' });
    expect(within(verified).getByText('Verified')).toBeInTheDocument();
    expect(within(verified).queryByRole('button', { name: /^Verify/ })).toBeNull();

    await userEvent.click(within(group).getByRole('button', { name: 'Verify acme.dev' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    await userEvent.click(within(group).getByRole('button', { name: 'Verify acme.dev' }));
    await waitFor(() => expect(within(group).getByText('Verified')).toBeInTheDocument());
    expect(sent).toEqual([{ domain: 'acme.dev' }, { domain: 'acme.dev' }]);
  });

  it('cannot require single sign-on before the provider has signed anyone in', async () => {
    serveSso({ ...CONNECTED, connection: { ...CONNECTION, verifiedAt: null } });
    renderWithApp(<SsoSettingsRoute />);
    const toggle = await screen.findByRole('switch', {
      name: /Members sign in with single sign-on only/,
    });
    expect(toggle).toBeDisabled();
    expect(screen.getByText(/Sign in with single sign-on once yourself/)).toBeInTheDocument();
  });
});
