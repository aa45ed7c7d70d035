import type { SlackSettingsResponse, TeamListResponse } from '@interlock/api-client';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { renderWithApp } from '@/test/render';
import { API, server } from '@/test/server';
import { SlackPanel } from './slack-panel';

const TEAM = '3c9e1a2b-0000-4000-8000-0000000000a1';
const TEAMS: TeamListResponse = {
  teams: [
    {
      id: TEAM,
      name: 'Payments',
      memberIds: [],
      createdAt: '2026-11-01T00:00:00.000Z',
    } as TeamListResponse['teams'][number],
  ],
};
const REQUEST_URL =
  'https://interlock.example.com/api/slack/interactions/5f0e7c1e-2222-4c1e-9a4e-0a0a0a0a0a02';
const CONNECTED: SlackSettingsResponse = {
  connection: {
    slackTeamId: 'T0123ABCD',
    slackTeamName: 'Acme Slack',
    channelId: 'C0123ABCD',
    teamId: TEAM,
    teamName: 'Payments',
    minRisk: 'high',
    requestUrl: REQUEST_URL,
    credentialsSetAt: '2026-11-26T10:00:00.000Z',
  },
  messages: [
    {
      interruptId: '3c9e1a2b-0000-4000-8000-000000000001',
      title: 'Refund 40 EUR',
      status: 'failed',
      posted: false,
      lastError: 'channel_not_found',
      updatedAt: '2026-11-26T10:05:00.000Z',
    },
  ],
};

/** The service's Slack settings: GET answers `state`, PUT and DELETE change it and are recorded. */
function serveSlack(initial: SlackSettingsResponse, put?: () => Response) {
  let state = initial;
  const puts: unknown[] = [];
  let deletes = 0;
  server.use(
    http.get(`${API}/notifications/slack`, () => HttpResponse.json(state)),
    http.get(`${API}/teams`, () => HttpResponse.json(TEAMS)),
    http.put(`${API}/notifications/slack`, async ({ request }) => {
      puts.push(await request.json());
      if (put) return put();
      state = CONNECTED;
      return HttpResponse.json(state);
    }),
    http.delete(`${API}/notifications/slack`, () => {
      deletes += 1;
      state = { connection: null, messages: [] };
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { puts, deletes: () => deletes };
}

describe('SlackPanel', () => {
  it('connects: sends the trimmed token, secret, channel, team and risk rule, then shows the connection (never the secrets)', async () => {
    const { puts } = serveSlack({ connection: null, messages: [] });
    renderWithApp(<SlackPanel canManage />);
    expect(await screen.findByText(/Not connected\./)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Bot token/), ' xoxb-1-2-abc ');
    await userEvent.type(screen.getByLabelText(/^Signing secret/), 'shh-secret');
    await userEvent.type(screen.getByLabelText(/^Channel id/), 'C0123ABCD');
    const which = screen
      .getAllByLabelText(/^Which interrupts/)
      .find((el) => el.tagName === 'INPUT') as HTMLElement;
    await userEvent.click(which);
    await userEvent.click(
      await screen.findByRole('option', { name: 'Those assigned to Payments' }),
    );
    const risk = screen
      .getAllByLabelText(/^Which risk/)
      .find((el) => el.tagName === 'INPUT') as HTMLElement;
    expect(risk).toHaveValue('Whatever the risk');
    await userEvent.click(risk);
    await userEvent.click(await screen.findByRole('option', { name: 'High risk and above' }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect Slack' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      botToken: 'xoxb-1-2-abc',
      signingSecret: 'shh-secret',
      channelId: 'C0123ABCD',
      teamId: TEAM,
      minRisk: 'high',
    });
    expect(await screen.findByText('Acme Slack')).toBeInTheDocument();
    expect(
      screen.getByText(
        /interrupts assigned to Payments of high risk or above \(or of unknown risk\) to channel/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText(REQUEST_URL)).toBeInTheDocument();
    // The form is gone and the secrets typed into it are nowhere on the page.
    expect(screen.queryByLabelText(/^Bot token/)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain('shh-secret');
    // The latest messages, with a failure's reason.
    expect(screen.getByRole('link', { name: 'Refund 40 EUR' })).toBeInTheDocument();
    expect(screen.getByText('channel_not_found')).toBeInTheDocument();
  });

  it("shows the service's refusal and keeps the form", async () => {
    serveSlack({ connection: null, messages: [] }, () =>
      HttpResponse.json(
        {
          statusCode: 409,
          error: 'Conflict',
          code: 'CONFLICT',
          requestId: 'b1c2d3e4-0000-4000-8000-000000000001',
          message:
            'Slack refused the bot token (invalid_auth): check it under the Slack app\u2019s OAuth & Permissions.',
        },
        { status: 409 },
      ),
    );
    renderWithApp(<SlackPanel canManage />);
    await userEvent.type(await screen.findByLabelText(/^Bot token/), 'xoxb-wrong');
    await userEvent.type(screen.getByLabelText(/^Signing secret/), 'secret');
    await userEvent.type(screen.getByLabelText(/^Channel id/), 'C0123ABCD');
    await userEvent.click(screen.getByRole('button', { name: 'Connect Slack' }));
    expect(
      await screen.findByText(/Slack refused the bot token \(invalid_auth\)/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Bot token/)).toHaveValue('xoxb-wrong');
  });

  it('replacing starts from the current channel, team and risk rule (the secrets are typed again)', async () => {
    const { puts } = serveSlack(CONNECTED);
    renderWithApp(<SlackPanel canManage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Replace connection' }));
    const risk = screen
      .getAllByLabelText(/^Which risk/)
      .find((el) => el.tagName === 'INPUT') as HTMLElement;
    expect(risk).toHaveValue('High risk and above');
    expect(screen.getByLabelText(/^Channel id/)).toHaveValue('C0123ABCD');
    await userEvent.type(screen.getByLabelText(/^Bot token/), 'xoxb-3-4-def');
    await userEvent.type(screen.getByLabelText(/^Signing secret/), 'other-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Replace connection' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      botToken: 'xoxb-3-4-def',
      signingSecret: 'other-secret',
      channelId: 'C0123ABCD',
      teamId: TEAM,
      minRisk: 'high',
    });
  });

  it('disconnects only after the confirmation', async () => {
    const slack = serveSlack(CONNECTED);
    renderWithApp(<SlackPanel canManage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect Slack?' });
    expect(dialog).toBeInTheDocument();
    expect(slack.deletes()).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Disconnect Slack' }));
    await waitFor(() => expect(slack.deletes()).toBe(1));
    expect(await screen.findByText(/Not connected\./)).toBeInTheDocument();
  });

  it('without webhook.manage: the connection is shown, nothing can change it', async () => {
    serveSlack(CONNECTED);
    renderWithApp(<SlackPanel canManage={false} />);
    expect(await screen.findByText('Acme Slack')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Replace connection' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Bot token/)).not.toBeInTheDocument();
  });
});
