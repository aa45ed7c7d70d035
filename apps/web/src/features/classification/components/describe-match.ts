import type { ClassificationRuleResponse } from '@interlock/api-client';

/** What a rule matches, in a line. */
export function describeMatch(m: ClassificationRuleResponse['match']): string {
  const parts = [
    m.actions && `actions ${m.actions.join(', ')}`,
    m.keyIds && `${m.keyIds.length} key(s)`,
    m.sessionIds && `${m.sessionIds.length} session(s)`,
    m.titleWords && `title has ${m.titleWords.join(' ')}`,
    ...(m.args ?? []).map((p) => `${p.path} ${p.op} ${JSON.stringify(p.value)}`),
    m.risk && `risk ${m.risk.join(', ')}`,
    m.labels && `labels ${m.labels.join(', ')}`,
  ].filter(Boolean);
  return parts.length === 0 ? 'every action' : parts.join(' · ');
}
