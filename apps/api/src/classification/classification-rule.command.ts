import type { MemberActor } from '@interlock/domain';
import type { RuleDraft } from './dry-run-classification.command';

/**
 * Create a classification rule (SPEC §8d): the input of `ClassificationRulesService.create`, built
 * by the REST controller from its validated body (the `CreateClassificationRuleDto` is a
 * `RuleDraft`). `match` and `outcome` are checked by the service, as for a dry run's drafts.
 */
export interface CreateClassificationRuleCommand {
  organisationId: string;
  actor: MemberActor;
  rule: RuleDraft;
  ip: string | null;
}

/**
 * Change a classification rule (SPEC §8d): the input of `ClassificationRulesService.update`; only
 * the fields given change (the validated `UpdateClassificationRuleDto` is such a `changes`).
 */
export interface UpdateClassificationRuleCommand {
  organisationId: string;
  actor: MemberActor;
  ruleId: string;
  changes: Partial<RuleDraft>;
  ip: string | null;
}
