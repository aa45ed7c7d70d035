import type { InterruptHistoryEntry, InterruptResponse } from '@interlock/api-client';
import type { ClassificationReceipt } from '@interlock/domain';
import { Anchor, Badge, Code, List, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { ARGUS_IN_WORDS } from '@/shared/utils/argus-in-words';
import { useRuleName, useRuleNames } from '../api/interrupts.queries';

/** The escalation reason argus writes when an enforced route escalates (SPEC §8d). */
const ARGUS_ESCALATION_REASON = 'Escalated by a classification rule';

/**
 * A classification rule by name (its id's start while the name loads, or for a member who may not
 * read rules), linked to its page in Settings → Classification.
 */
export function RuleLink({ ruleId, labelPrefix }: { ruleId: string; labelPrefix: string }) {
  const name = useRuleName(ruleId);
  return (
    <Anchor
      component={Link}
      to={`/settings/classification/${ruleId}`}
      size="xs"
      aria-label={`${labelPrefix}: ${name ?? ruleId}`}
    >
      {name ?? <Code>{ruleId.slice(0, 8)}</Code>}
    </Anchor>
  );
}

const SKIPPED: Record<NonNullable<ClassificationReceipt['skipped']>, string> = {
  decision_not_allowed: 'the action does not allow that decision, so a person decides',
  circuit_breaker:
    'argus’s circuit breaker had tripped for this key (too many rejections in a short time), so a person decides',
  policy_error: 'its Cedar policy could not be evaluated, so it applied as “a person decides”',
  classifier_failed: 'the external classifier gave no answer, so a person decides',
  approver_team_unavailable:
    'its approver team is gone or has fewer members than the approvals needed, so any member who may decide counts',
};

const WOULD: Record<ClassificationReceipt['outcome'], string> = {
  approve: 'approve',
  reject: 'reject',
  route: 'route the interrupt',
  require_human: 'leave it to a person',
};

const DID: Record<ClassificationReceipt['outcome'], string> = {
  approve: 'approved it',
  reject: 'rejected it',
  route: 'routed the interrupt',
  require_human: 'requires a person to decide',
};

/** A receipt as the audit entry holds it (metadata is opaque to the contract: read with care). */
function asReceipt(metadata: InterruptHistoryEntry['metadata']): ClassificationReceipt | null {
  if (metadata === null) return null;
  const { actionName, ruleIds, mode, outcome, enforced } = metadata;
  if (typeof actionName !== 'string' || !Array.isArray(ruleIds) || typeof enforced !== 'boolean')
    return null;
  if (mode !== 'shadow' && mode !== 'enforce') return null;
  if (typeof outcome !== 'string' || !(outcome in WOULD)) return null;
  return metadata as ClassificationReceipt;
}

/** One matching rule and what came of it, in a sentence. */
function ReceiptLine({
  receipt,
  teamName,
}: {
  receipt: ClassificationReceipt;
  /** The action's approver team as the interrupt holds it (a quorum rule's team, when applied). */
  teamName?: string;
}) {
  const { mode, outcome, enforced, skipped, requiredApprovals, approverTeamId } = receipt;
  const what =
    mode === 'shadow'
      ? `would ${WOULD[outcome]} — shadow mode: recorded only, a person decides`
      : skipped === 'approver_team_unavailable'
        ? `${DID[outcome]}, but ${SKIPPED[skipped]}`
        : skipped !== undefined
          ? `would ${WOULD[outcome]}, but ${SKIPPED[skipped] ?? skipped}`
          : enforced
            ? DID[outcome]
            : `did not apply`;
  return (
    <List.Item data-argus-receipt={`${receipt.actionName}:${mode}:${outcome}`}>
      <Text size="xs" span>
        Rule{' '}
        {receipt.ruleIds.map((id, i) => (
          <span key={id}>
            {i > 0 && ', '}
            <RuleLink ruleId={id} labelPrefix="The rule that matched" />
          </span>
        ))}{' '}
        <Badge size="xs" variant="outline" color={mode === 'enforce' ? 'violet' : 'gray'}>
          {mode}
        </Badge>{' '}
        {what}.
        {(requiredApprovals !== undefined || approverTeamId !== undefined) && (
          <>
            {' '}
            {mode === 'enforce' && enforced ? 'Needs' : 'Would need'} {requiredApprovals ?? 1}{' '}
            approval{(requiredApprovals ?? 1) === 1 ? '' : 's'}
            {approverTeamId !== undefined &&
              skipped !== 'approver_team_unavailable' &&
              ` from ${mode === 'enforce' && teamName !== undefined ? teamName : 'one team'}`}
            .
          </>
        )}
        {receipt.policyIds !== undefined && receipt.policyIds.length > 0 && (
          <> Determining Cedar policies: {receipt.policyIds.join(', ')}.</>
        )}
        {receipt.error !== undefined && (
          <>
            {' '}
            The engine said: <Code>{receipt.error}</Code>
          </>
        )}
      </Text>
    </List.Item>
  );
}

/**
 * What argus did to this interrupt and why (issue 31 §1, SPEC §8d): per action, every rule that
 * matched (name linked, mode, outcome, whether it was applied or why not, Cedar policy ids), the
 * route it applied, and a failure or a tripped circuit breaker. Read from the entries argus wrote
 * about the interrupt (`include=argus`, which anyone who may read the interrupt gets); without
 * them only the decisions argus took are known. Nothing when argus had no part.
 */
export function ArgusExplanation({
  interrupt,
  entries,
  entriesLimit,
}: {
  interrupt: InterruptResponse;
  /** The entries argus wrote (`include=argus`), oldest first; others among them are ignored. */
  entries: InterruptHistoryEntry[] | undefined;
  /** The most entries the API answers (the latest): a full page may have lost the receipts. */
  entriesLimit: number;
}) {
  const byArgus = (entries ?? []).filter((e) => e.actorType === 'argus');
  const receipts = byArgus.flatMap((e) =>
    e.action === 'classification.applied' || e.action === 'classification.shadowed'
      ? (asReceipt(e.metadata) ?? [])
      : [],
  );
  const failed = byArgus.find((e) => e.action === 'classification.failed');
  const breaker = byArgus.find((e) => e.action === 'classification.breaker_tripped');
  const routed = byArgus.filter(
    (e) => e.action === 'interrupt.assigned' || e.action === 'interrupt.escalated',
  );
  const argusDecisions = interrupt.decisions.filter((d) => d.decidedBy.type === 'argus');
  const nothing =
    receipts.length === 0 && failed === undefined && breaker === undefined && routed.length === 0;

  if (nothing && argusDecisions.length === 0) {
    // Say "no rule matched" only when all argus wrote is known (receipts are among the first entries).
    if (entries === undefined || entries.length >= entriesLimit) return null;
    return (
      <ArgusPaper>
        <Text size="xs" data-argus-none="">
          No classification rule matched these actions: every one waits for a person.
        </Text>
      </ArgusPaper>
    );
  }

  const actionNames = interrupt.actionRequests.map((a) => a.name);
  return (
    <ArgusPaper>
      {failed !== undefined && (
        <Text size="xs" c="red" data-argus-failed="">
          argus could not evaluate the rules (
          {String((failed.metadata as { reason?: unknown } | null)?.reason ?? 'unknown')}), so it
          decided nothing: every action waits for a person.
        </Text>
      )}
      {breaker !== undefined && (
        <Text size="xs" c="orange" data-argus-breaker="">
          Circuit breaker: argus had rejected{' '}
          {String((breaker.metadata as { rejections?: unknown } | null)?.rejections ?? 'many')}{' '}
          actions of this key within{' '}
          {String((breaker.metadata as { windowSeconds?: unknown } | null)?.windowSeconds ?? '?')}{' '}
          seconds, so no rule decides its interrupts for now.
        </Text>
      )}
      {actionNames.map((name) => {
        const own = receipts.filter((r) => r.actionName === name);
        // Without its receipt (no entries, or too many) the decision argus took is what is known.
        const decided = own.length === 0 ? argusDecisions.filter((d) => d.actionName === name) : [];
        if (own.length === 0 && decided.length === 0) return null;
        return (
          <Stack gap={2} key={name}>
            <Text size="xs" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            <List size="xs" spacing={2}>
              {own.map((r, i) => (
                <ReceiptLine
                  key={i}
                  receipt={r}
                  teamName={
                    interrupt.actionRequests.find((a) => a.name === name)?.approverTeam?.name
                  }
                />
              ))}
              {decided.map(
                (d) =>
                  d.decidedBy.type === 'argus' && (
                    <List.Item key={d.id} data-argus-receipt={`${name}:enforce:${d.decision}`}>
                      <Text size="xs" span>
                        Rule{' '}
                        <RuleLink ruleId={d.decidedBy.ruleId} labelPrefix="The rule that matched" />{' '}
                        {d.decision === 'approve' ? 'approved' : 'rejected'} it.
                      </Text>
                    </List.Item>
                  ),
              )}
            </List>
          </Stack>
        );
      })}
      {routed.map((e) => (
        <Text size="xs" key={e.id} data-argus-route="">
          {e.action === 'interrupt.assigned'
            ? `Routed: assigned to ${String((e.metadata as { assigneeName?: unknown } | null)?.assigneeName ?? 'someone')}.`
            : 'Routed: escalated.'}
        </Text>
      ))}
    </ArgusPaper>
  );
}

function ArgusPaper({ children }: { children: ReactNode }) {
  // Reached from an inbox row's argus badge (`#argus`): the section arrives after the interrupt
  // loads, so the browser's own jump to the fragment has already missed it.
  const { hash } = useLocation();
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (hash === '#argus') section.current?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="argus-heading"
      id="argus"
      ref={section}
    >
      <Stack gap="xs">
        <Title order={2} size="h5" id="argus-heading">
          What argus did
        </Title>
        <Text size="xs" c="dimmed">
          {ARGUS_IN_WORDS}
        </Text>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * In an inbox row: what argus decided or how it routed the interrupt, as a badge that links to the
 * interrupt page's "What argus did" (every rule that matched). The rules that decided are in the
 * link's accessible name and in a tooltip shown on hover and on keyboard focus, so keyboard, touch
 * (the link) and screen-reader users reach them too. Nothing when argus had no part the record shows.
 */
export function ArgusRowBadge({
  interrupt,
}: {
  interrupt: Pick<InterruptResponse, 'id' | 'decisions' | 'escalationReason'>;
}) {
  const decided = interrupt.decisions.flatMap((d) =>
    d.decidedBy.type === 'argus'
      ? [{ action: d.actionName, decision: d.decision, ruleId: d.decidedBy.ruleId }]
      : [],
  );
  const escalated = interrupt.escalationReason === ARGUS_ESCALATION_REASON;
  // Most rows: no hooks at all (the rules' names are read only for a row that shows the badge;
  // fifty rows of idle queries were a measurable part of the inbox's first load, tools:bench-web).
  if (decided.length === 0 && !escalated) return null;
  return <ArgusBadge interruptId={interrupt.id} decided={decided} escalated={escalated} />;
}

function ArgusBadge({
  interruptId,
  decided,
  escalated,
}: {
  interruptId: string;
  decided: { action: string; decision: string; ruleId: string }[];
  escalated: boolean;
}) {
  const names = useRuleNames(decided.map((d) => d.ruleId));
  const approved = decided.filter((d) => d.decision === 'approve').length;
  const rejected = decided.length - approved;
  const parts = [
    approved > 0 && `approved ${approved}`,
    rejected > 0 && `rejected ${rejected}`,
    escalated && 'escalated',
  ].filter(Boolean);
  const label = `argus ${parts.join(', ')}`;
  const lines = [
    ...decided.map(
      (d, i) =>
        `${d.decision === 'approve' ? 'Approved' : 'Rejected'} ${d.action} by rule ${names[i] ?? d.ruleId.slice(0, 8)}`,
    ),
    ...(escalated ? ['Escalated by an enforced route rule'] : []),
  ];
  return (
    <Tooltip
      multiline
      w={320}
      events={{ hover: true, focus: true, touch: false }}
      label={
        <Stack gap={2}>
          {lines.map((line, i) => (
            <Text size="xs" key={i}>
              {line}
            </Text>
          ))}
          <Text size="xs" c="dimmed">
            The interrupt’s page shows every rule that matched.
          </Text>
        </Stack>
      }
    >
      <Badge
        component={Link}
        to={`/interrupts/${interruptId}#argus`}
        aria-label={`${label}: ${lines.join('; ')}`}
        variant="light"
        color="violet"
        tt="none"
        miw="max-content"
        style={{ cursor: 'pointer' }}
        data-argus-row=""
      >
        {label}
      </Badge>
    </Tooltip>
  );
}
