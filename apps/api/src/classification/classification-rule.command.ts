import type { RuleDraft } from './dry-run-classification.command';
import type { MemberCall } from '../auth/caller';

/**
 * Create a classification rule (SPEC §8d): the input of `ClassificationRulesService.create`, built
 * by the REST controller from its validated body (the `CreateClassificationRuleDto` is a
 * `RuleDraft`). `match` and `outcome` are checked by the service, as for a dry run's drafts.
 */
export interface CreateClassificationRuleCommand extends MemberCall {
  rule: RuleDraft;
}

/**
 * Change a classification rule (SPEC §8d): the input of `ClassificationRulesService.update`; only
 * the fields given change (the validated `UpdateClassificationRuleDto` is such a `changes`).
 */
export interface UpdateClassificationRuleCommand extends MemberCall {
  ruleId: string;
  changes: Partial<RuleDraft>;
}
