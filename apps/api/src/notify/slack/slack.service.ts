import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError, type SlackConnectionSnapshot } from '@interlock/domain';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { actionDigest } from '../../interrupts/action-digest.util';
import { InterruptReviewService } from '../../interrupts/interrupt-review.service';
import { lockCurrentMemberHolding } from '../../members/memberships.repository';
import { OrganisationsRepository } from '../../organisation/organisations.repository';
import { TeamsService } from '../../teams/teams.service';
import type { WebhookSecretBox } from '../../webhooks/webhook-secret.util';
import type { SlackConnectionResponse, SlackSettingsResponse } from '../dto/slack.dto';
import type { ConnectSlackCommand } from './connect-slack.command';
import { SlackApi, slackErrorText } from './slack-api';
import { readButtonValue } from './slack-message';
import { checkSlackSignature } from './slack-signature.util';
import { SlackRepository, type SlackConnectionRow } from './slack.repository';
import type { MemberCall } from '../../auth/caller';

/** The sealed secrets' box, provided by NotifyModule (key purpose `slack/v1`). */
export const SLACK_SECRET_BOX = Symbol('SLACK_SECRET_BOX');

/** The exact texts (SPEC §8h). */
export const SLACK_ERRORS = {
  notConnected: 'No Slack app is connected to this organisation.',
  refused: (reason: string) =>
    `Slack refused the bot token (${reason}): check it under the Slack app's OAuth & Permissions.`,
  unreachable: 'Slack could not be reached to check the bot token. Try again shortly.',
  unsigned: "This request is not signed by this organisation's Slack app.",
  stale: 'This Slack request is too old (its timestamp is more than five minutes from now).',
  payload: 'body: payload must be the JSON of a Slack interaction.',
  otherWorkspace: 'This Slack request comes from another workspace than the connected one.',
} as const;

/** What Slack users are told, in a message only they see, when a button does not decide. */
export const SLACK_REPLIES = {
  unlinked:
    'Your Slack account is not linked to a member of this Interlock organisation (its email address is not a member’s verified address). Decide in Interlock instead.',
  mayNotDecide: 'You may not decide interrupts in this Interlock organisation.',
  changed:
    'This action is not the one the message showed: open the interrupt in Interlock to decide.',
} as const;

/** The parts of Slack's `block_actions` payload we read. */
interface SlackInteraction {
  type?: string;
  team?: { id?: string } | null;
  user?: { id?: string; team_id?: string };
  channel?: { id?: string };
  actions?: { action_id?: string; value?: string }[];
}

const TOKEN_AAD = 'slack-bot-token';
const SECRET_AAD = 'slack-signing-secret';

/**
 * Slack (issue 30 §4): connecting an organisation's Slack app (member routes, `webhook.manage`
 * to change; audited as `settings.notifications_updated` `{changes: {slack}}`), and Slack's
 * interactivity requests — verified with the app's signing secret over the exact bytes, then a
 * button decides as the member whose verified email the Slack user's profile shows, through the
 * same decision path as the dashboard (`via: "slack"`). What does not decide is said to that
 * Slack user alone (`chat.postEphemeral`).
 */
@Injectable()
export class SlackService {
  private readonly publicOrigin: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly slack: SlackApi,
    private readonly repository: SlackRepository,
    @Inject(SLACK_SECRET_BOX) private readonly box: WebhookSecretBox,
    private readonly organisations: OrganisationsRepository,
    private readonly teams: TeamsService,
    private readonly review: InterruptReviewService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.publicOrigin = config.publicOrigin;
  }

  async settings(organisationId: string): Promise<SlackSettingsResponse> {
    const row = await this.repository.connection(this.dataSource, organisationId);
    const messages = await this.repository.latestMessages(this.dataSource, organisationId, 20);
    return {
      connection: row === undefined ? null : this.response(organisationId, row),
      messages: messages.map((m) => ({
        interruptId: m.interrupt_id,
        title: m.title,
        status: m.status,
        posted: m.posted,
        lastError: m.last_error,
        updatedAt: m.updated_at.toISOString(),
      })),
    };
  }

  async connect({
    organisationId,
    actor,
    connection: body,
    ip,
  }: ConnectSlackCommand): Promise<SlackSettingsResponse> {
    // Asked before the transaction: no lock is held while Slack answers.
    let workspace;
    try {
      workspace = await this.slack.workspace(body.botToken);
    } catch (error) {
      const reason = (error as { data?: { error?: string } }).data?.error;
      if (reason !== undefined) throw new DomainError('CONFLICT', SLACK_ERRORS.refused(reason));
      throw new DomainError('CONFLICT', SLACK_ERRORS.unreachable);
    }
    await this.dataSource.transaction(async (tx) => {
      const organisation = await this.organisations.read(tx, organisationId);
      if (organisation === undefined) throw DomainError.of('NOT_FOUND');
      const teamId = body.teamId ?? null;
      if (teamId !== null) await this.teams.lockTeam(tx, organisationId, teamId, 'FOR KEY SHARE');
      const before = await this.repository.connection(tx, organisationId, true);
      const credentialsSetAt = await this.repository.saveConnection(tx, organisationId, {
        slackTeamId: workspace.teamId,
        slackTeamName: workspace.teamName,
        botUserId: workspace.botUserId,
        botToken: this.box.seal(body.botToken, organisationId, TOKEN_AAD),
        signingSecret: this.box.seal(body.signingSecret, organisationId, SECRET_AAD),
        channelId: body.channelId,
        teamId,
        minRisk: body.minRisk ?? null,
      });
      const to: SlackConnectionSnapshot = {
        slackTeamId: workspace.teamId,
        slackTeamName: workspace.teamName,
        channelId: body.channelId,
        teamId,
        minRisk: body.minRisk ?? null,
        credentialsSetAt: credentialsSetAt.toISOString(),
      };
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.notifications_updated',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation.name },
        metadata: {
          changes: { slack: { from: before === undefined ? null : snapshot(before), to } },
        },
        ipAddress: ip,
      });
    });
    return this.settings(organisationId);
  }

  async disconnect({ organisationId, actor, ip }: MemberCall): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const organisation = await this.organisations.read(tx, organisationId);
      const before = await this.repository.connection(tx, organisationId, true);
      if (organisation === undefined || before === undefined)
        throw new DomainError('NOT_FOUND', SLACK_ERRORS.notConnected);
      await this.repository.deleteConnection(tx, organisationId);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.notifications_updated',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation.name },
        metadata: { changes: { slack: { from: snapshot(before), to: null } } },
        ipAddress: ip,
      });
    });
  }

  /**
   * One interactivity request from Slack. Nothing is read from the payload before the signature
   * over the exact bytes checks out with this organisation's signing secret.
   */
  async interact(
    organisationId: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer | undefined,
  ): Promise<void> {
    const row = await this.repository.connection(this.dataSource, organisationId);
    if (row === undefined) throw new DomainError('NOT_FOUND', SLACK_ERRORS.notConnected);
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const check = checkSlackSignature(
      this.box.open(row.signing_secret, organisationId, SECRET_AAD),
      header('x-slack-request-timestamp'),
      header('x-slack-signature'),
      body ?? Buffer.alloc(0),
    );
    if (check === 'stale') throw new DomainError('FORBIDDEN', SLACK_ERRORS.stale);
    if (check !== 'ok') throw new DomainError('FORBIDDEN', SLACK_ERRORS.unsigned);

    let payload: SlackInteraction;
    try {
      const raw = new URLSearchParams((body ?? Buffer.alloc(0)).toString('utf8')).get('payload');
      payload = JSON.parse(raw ?? '') as SlackInteraction;
      if (payload === null || typeof payload !== 'object') throw new Error('not an object');
    } catch {
      throw new DomainError('VALIDATION_FAILED', SLACK_ERRORS.payload);
    }
    const workspace = payload.team?.id ?? payload.user?.team_id;
    if (workspace !== row.slack_team_id)
      throw new DomainError('FORBIDDEN', SLACK_ERRORS.otherWorkspace);
    if (payload.type !== 'block_actions') return;
    const slackUser = payload.user?.id;
    const channel = payload.channel?.id;
    if (typeof slackUser !== 'string' || typeof channel !== 'string') return;

    const client = this.slack.client(this.box.open(row.bot_token, organisationId, TOKEN_AAD));
    const tell = (text: string) =>
      client.chat.postEphemeral({ channel, user: slackUser, text }).then(
        () => undefined,
        () => undefined,
      );
    for (const action of payload.actions ?? []) {
      const value = readButtonValue(action.value);
      if (value === null) continue; // "Open in Interlock" and anything not ours
      const userId = await this.linkedUser(client, organisationId, slackUser);
      if (userId === null) {
        await tell(SLACK_REPLIES.unlinked);
        continue;
      }
      try {
        await this.review.decideAuthorised(
          {
            organisationId,
            interruptId: value.i,
            actionName: value.a,
            decision: value.d,
            ip: null,
          },
          async (tx, decided) => {
            const member = await lockCurrentMemberHolding(
              tx,
              organisationId,
              userId,
              'interrupt.decide',
            );
            if (member === undefined) throw new DomainError('FORBIDDEN', SLACK_REPLIES.unlinked);
            if (!member.holds) throw new DomainError('FORBIDDEN', SLACK_REPLIES.mayNotDecide);
            if (actionDigest(value.i, decided.name, decided.args) !== value.g)
              throw new DomainError('CONFLICT', SLACK_REPLIES.changed);
            return { actor: { type: 'member', id: member.id, name: member.name }, via: 'slack' };
          },
        );
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        await tell(error.message);
      }
    }
  }

  /**
   * The member a Slack user is: the current member whose email is the address Slack shows on the
   * user's profile (users.info), when Slack says it is confirmed. Null when there is none.
   */
  private async linkedUser(
    client: ReturnType<SlackApi['client']>,
    organisationId: string,
    slackUser: string,
  ): Promise<string | null> {
    let email: string | undefined;
    try {
      const info = await client.users.info({ user: slackUser });
      const user = info.user as
        | { profile?: { email?: string }; is_email_confirmed?: boolean; deleted?: boolean }
        | undefined;
      if (user?.deleted === true || user?.is_email_confirmed === false) return null;
      email = user?.profile?.email;
    } catch (error) {
      throw new DomainError(
        'CONFLICT',
        `Slack could not tell who you are: ${slackErrorText(error)}`,
      );
    }
    if (email === undefined || email === '') return null;
    return (await this.repository.memberByEmail(this.dataSource, organisationId, email)) ?? null;
  }

  private response(organisationId: string, row: SlackConnectionRow): SlackConnectionResponse {
    return {
      slackTeamId: row.slack_team_id,
      slackTeamName: row.slack_team_name,
      channelId: row.channel_id,
      teamId: row.team_id,
      teamName: row.team_name,
      minRisk: row.min_risk,
      requestUrl: `${this.publicOrigin}/api/slack/interactions/${organisationId}`,
      credentialsSetAt: row.credentials_set_at.toISOString(),
    };
  }
}

function snapshot(row: SlackConnectionRow): SlackConnectionSnapshot {
  return {
    slackTeamId: row.slack_team_id,
    slackTeamName: row.slack_team_name,
    channelId: row.channel_id,
    teamId: row.team_id,
    minRisk: row.min_risk,
    credentialsSetAt: row.credentials_set_at.toISOString(),
  };
}
