import type { Risk } from '../../classification/rule-engine';
import type { MemberCall } from '../../auth/caller';

/** Where and what the organisation's Slack app posts (SPEC §8c). */
export interface SlackConnectionSettings {
  botToken: string;
  signingSecret: string;
  channelId: string;
  /** Only the interrupts assigned to this team; null or absent: every new interrupt. */
  teamId?: string | null;
  /** Only the interrupts of at least this risk (and those of unknown risk); null or absent: all. */
  minRisk?: Risk | null;
}

/**
 * Connect (or reconnect) the organisation's Slack app: the input of `SlackService.connect`,
 * built by the REST controller from its validated body (the `ConnectSlackDto` is a
 * `SlackConnectionSettings`).
 */
export interface ConnectSlackCommand extends MemberCall {
  connection: SlackConnectionSettings;
}
