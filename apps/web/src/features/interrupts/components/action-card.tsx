import {
  isApiError,
  type ActionRequestResponse,
  type DecidedBy,
  type DecideInterruptDto,
  type DecisionResponse,
  type DecisionType,
  type InterruptResponse,
  type JsonObject,
} from '@interlock/api-client';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  JsonInput,
  Paper,
  Spoiler,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { JsonTree } from '@/shared/components/json-tree';
import { Markdown } from '@/shared/components/markdown';
import { RelativeTime } from '@/shared/components/relative-time';
import { prettyJson } from '@/shared/utils/format';
import { useCan, useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { useDecide } from '../api/interrupts.queries';
import { AlwaysAllowForm } from './always-allow-form';
import { SuggestedRuleCard } from './suggested-rule-card';
import { ArgsDiff } from './args-diff';
import { ArgusTerm } from '@/shared/components/argus-term';
import { RuleLink } from './argus-explanation';
import { parseEditedArgs } from './edited-args';
import { requiredApprovalsOf } from './interrupt-badges';
import { ResponseForm } from './response-form';
import type { ResponseSchema } from '@interlock/domain';
import './action-card.css';
import { whenSettled } from '@/shared/utils/when-settled';

const DECIDED: Record<DecisionType, { label: string; color: string }> = {
  approve: { label: 'Approved', color: 'teal' },
  edit: { label: 'Edited', color: 'blue' },
  reject: { label: 'Rejected', color: 'red' },
  respond: { label: 'Responded', color: 'grape' },
};

type Mode = null | 'edit' | 'reject' | 'respond' | 'always';

/**
 * A button named after an action keeps to the card's width: a long name ends in an ellipsis (its
 * accessible name stays whole). The label stays Mantine's centred flex box, so the text sits in
 * the middle of the button; only the text inside it is cut.
 */
const FITS = {
  root: { maxWidth: '100%' },
  inner: { minWidth: 0 },
  label: { minWidth: 0 },
} as const;

function Fit({ children }: { children: ReactNode }) {
  return <span className="decision-label">{children}</span>;
}

/** A decision's body without the action it is for (one shape per decision type). */
type DecisionBody = DecideInterruptDto extends infer D
  ? D extends unknown
    ? Omit<D, 'actionName'>
    : never
  : never;

/** One action request: its arguments, and the decisions it allows (or the one it got). */
export function ActionCard({
  interrupt,
  action,
  canDecide,
  startEditing = false,
  onDecided,
}: {
  interrupt: InterruptResponse;
  action: ActionRequestResponse;
  canDecide: boolean;
  startEditing?: boolean;
  /** Called after this page recorded a decision (the interrupt page then moves on). */
  onDecided?: () => void;
}) {
  const decision = interrupt.decisions.find((d) => d.actionName === action.name);
  const decide = useDecide();
  const [mode, setMode] = useState<Mode>(
    startEditing && action.allowedDecisions.includes('edit') ? 'edit' : null,
  );
  const [lostRace, setLostRace] = useState<string | null>(null);
  // After a decision its buttons are gone: keyboard focus moves to the action's heading, so the
  // next Tab reaches the next action rather than the top of the page — unless the reviewer has
  // moved on meanwhile (see `focusStayed`).
  const heading = useRef<HTMLHeadingElement>(null);
  const allows = (d: DecisionType) => action.allowedDecisions.includes(d);
  const canWriteRules = useCan('classification.manage');
  // Several approvers (SPEC §8e): the approvals so far, and whether this member gave one.
  const me = useSignInSession().data?.member.id;
  const required = requiredApprovalsOf(action);
  const approvals = action.approvals ?? [];
  const approvedByMe = approvals.some((a) => a.memberId === me);

  // Once a decision sent while `from` had the focus is in (any of them: the buttons and forms
  // below, or "Always allow…", which approves and makes a rule).
  const decided = (from: Element | null) => {
    setMode(null);
    window.requestAnimationFrame(() => {
      const card = heading.current?.closest('[data-action-card]') ?? null;
      if (focusStayed(from, card)) heading.current?.focus();
    });
    onDecided?.();
  };
  const send = (body: DecisionBody) => {
    const from = document.activeElement;
    whenSettled(
      decide.mutateAsync({ id: interrupt.id, body: { actionName: action.name, ...body } }),
      () => decided(from),
      (error) => {
        // A colleague decided first: the interrupt is refreshed and shows who.
        if (isApiError(error) && error.status === 409) {
          setLostRace(error.message);
          setMode(null);
        }
      },
    );
  };

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby={`action-${action.name}`}
      data-action-card={action.name}
      data-undecided={decision ? undefined : ''}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title
            order={2}
            size="h4"
            id={`action-${action.name}`}
            ref={heading}
            tabIndex={-1}
            style={{ overflowWrap: 'anywhere' }}
          >
            {action.name}
          </Title>
          {decision ? (
            <Badge color={DECIDED[decision.decision].color} variant="light" miw="max-content">
              {DECIDED[decision.decision].label}
            </Badge>
          ) : (
            <Text size="xs" c="dimmed">
              Allows: {action.allowedDecisions.join(', ')}
            </Text>
          )}
        </Group>
        {action.description !== null && (
          <Spoiler
            maxHeight={120}
            showLabel="Show the whole action description"
            hideLabel="Show less"
          >
            <Markdown text={action.description} label={`Description of ${action.name}`} />
          </Spoiler>
        )}
        <JsonTree value={action.args} label={`Arguments of ${action.name}`} />
        {(required > 1 || (action.approverTeam ?? null) !== null) && (
          <ApprovalProgress action={action} decided={decision !== undefined} />
        )}
        {lostRace !== null && decision && (
          <Alert
            color="orange"
            variant="light"
            role="alert"
            title={`${decision.decidedBy.name} decided this first`}
          >
            {lostRace} It was {DECIDED[decision.decision].label.toLowerCase()} by{' '}
            {decision.decidedBy.name}; your decision was not recorded.
          </Alert>
        )}
        {decision ? (
          <DecisionView decision={decision} action={action} />
        ) : (
          canDecide &&
          interrupt.status === 'open' && (
            <>
              {mode === null && (
                // Sticks to the bottom of the window while the card is in view: on a long
                // payload the buttons never scroll away.
                <Group gap="xs" wrap="wrap" className="decision-bar" data-decision-bar="">
                  {allows('approve') &&
                    (approvedByMe ? (
                      // The service refuses a second approval by the same member (409): say why here.
                      <Button color="teal" disabled data-decision="approve" styles={FITS}>
                        <Fit>You approved: waiting for {required - approvals.length} more</Fit>
                      </Button>
                    ) : (
                      <Button
                        color="teal"
                        loading={decide.isPending}
                        onClick={() => send({ decision: 'approve' })}
                        data-decision="approve"
                        styles={FITS}
                      >
                        <Fit>
                          Approve {action.name}
                          {required > 1 && ` (${approvals.length + 1} of ${required})`}
                        </Fit>
                      </Button>
                    ))}
                  {allows('approve') && canWriteRules && required === 1 && (
                    <Button
                      variant="light"
                      color="teal"
                      onClick={() => setMode('always')}
                      data-decision="always-allow"
                      styles={FITS}
                    >
                      <Fit>Always allow {action.name}…</Fit>
                    </Button>
                  )}
                  {allows('edit') && (
                    <Button
                      variant="default"
                      onClick={() => setMode('edit')}
                      data-decision="edit"
                      styles={FITS}
                    >
                      <Fit>Edit {action.name}</Fit>
                    </Button>
                  )}
                  {allows('reject') && (
                    <Button
                      variant="light"
                      color="red"
                      onClick={() => setMode('reject')}
                      data-decision="reject"
                      styles={FITS}
                    >
                      <Fit>Reject {action.name}</Fit>
                    </Button>
                  )}
                  {allows('respond') && (
                    <Button
                      variant="light"
                      color="grape"
                      onClick={() => setMode('respond')}
                      data-decision="respond"
                      styles={FITS}
                    >
                      <Fit>Respond to {action.name}</Fit>
                    </Button>
                  )}
                </Group>
              )}
              {mode === null && allows('approve') && required === 1 && (
                <SuggestedRuleCard interrupt={interrupt} action={action} />
              )}
              {mode === 'always' && (
                <AlwaysAllowForm
                  interrupt={interrupt}
                  action={action}
                  onCancel={() => setMode(null)}
                  onDone={decided}
                />
              )}
              {mode === 'edit' && (
                <EditForm
                  action={action}
                  pending={decide.isPending}
                  onCancel={() => setMode(null)}
                  onSend={(edit) => send({ decision: 'edit', ...edit })}
                />
              )}
              {mode === 'respond' && action.responseSchema && (
                <ResponseForm
                  actionName={action.name}
                  schema={action.responseSchema as unknown as ResponseSchema}
                  pending={decide.isPending}
                  onCancel={() => setMode(null)}
                  onSend={(answer) =>
                    send({
                      decision: 'respond',
                      ...answer,
                      response: answer.response as JsonObject,
                    })
                  }
                />
              )}
              {(mode === 'reject' || (mode === 'respond' && !action.responseSchema)) && (
                <MessageForm
                  kind={mode === 'reject' ? 'reject' : 'respond'}
                  action={action}
                  pending={decide.isPending}
                  onCancel={() => setMode(null)}
                  onSend={(message) =>
                    send(
                      mode === 'respond'
                        ? { decision: 'respond', message }
                        : { decision: 'reject', message: message === '' ? undefined : message },
                    )
                  }
                />
              )}
              {!(isApiError(decide.error) && decide.error.status === 409) && (
                <FormError error={decide.error} />
              )}
            </>
          )
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Whether the keyboard focus is still where a decision left it: where it was when the decision
 * went out (`from`), inside the decided action's card (its form, until the refresh removes it),
 * or nowhere (the page's body: the button or form that had it is gone). A decision settles only
 * once its refresh is in, which on a loaded machine can be seconds later; by then the reviewer
 * may have opened the next action's form and be typing in it, and taking the focus from there
 * would send their words and their Ctrl+Enter nowhere.
 */
function focusStayed(from: Element | null, card: Element | null): boolean {
  const now = document.activeElement;
  return (
    now === null || now === document.body || now === from || (card !== null && card.contains(now))
  );
}

/**
 * An action that needs several approvals or a team's: who approved so far (k of n), and who may
 * decide. One rejection by a member who may decide rejects it, which the text says.
 */
function ApprovalProgress({
  action,
  decided,
}: {
  action: ActionRequestResponse;
  decided: boolean;
}) {
  const required = requiredApprovalsOf(action);
  const approvals = action.approvals ?? [];
  const team = action.approverTeam ?? null;
  return (
    <Stack gap={4} data-approval-progress="">
      {required > 1 && (
        <Text size="sm">
          <strong>
            {approvals.length} of {required} approvals
          </strong>
          {approvals.length > 0 && (
            <>
              {': '}
              {approvals.map((a, i) => (
                <span key={a.memberId}>
                  {i > 0 && ', '}
                  {a.memberName} <RelativeTime value={a.approvedAt} />
                </span>
              ))}
            </>
          )}
        </Text>
      )}
      {!decided && (
        <Text size="xs" c="dimmed">
          {required > 1 &&
            `Needs ${required} different members' approvals; one rejection rejects it. `}
          {team !== null && `Only members of team ${team.name} may decide it.`}
        </Text>
      )}
    </Stack>
  );
}

/** Why the service decided, in words. */
const SYSTEM_REASONS: Record<string, string> = { timeout: 'the deadline passed' };

/** Who decided: a member by name; argus (with its rule) and the service as badges, never as a person. */
export function DeciderName({ decidedBy }: { decidedBy: DecidedBy }) {
  switch (decidedBy.type) {
    case 'argus':
      return (
        <>
          <ArgusTerm lead="Decided automatically by argus." data-argus-decider="">
            <Badge
              component="span"
              color="violet"
              variant="light"
              size="sm"
              style={{ cursor: 'inherit' }}
            >
              argus
            </Badge>
          </ArgusTerm>{' '}
          <Text span size="xs" c="dimmed">
            (rule <RuleLink ruleId={decidedBy.ruleId} labelPrefix="The rule that decided" />)
          </Text>
        </>
      );
    case 'system':
      return (
        <>
          <Badge color="gray" variant="light" size="sm" title="Decided by Interlock itself">
            system
          </Badge>{' '}
          <Text span size="xs" c="dimmed">
            ({SYSTEM_REASONS[decidedBy.reason] ?? decidedBy.reason})
          </Text>
        </>
      );
    default:
      return <strong>{decidedBy.name}</strong>;
  }
}

function DecisionView({
  decision,
  action,
}: {
  decision: DecisionResponse;
  action: ActionRequestResponse;
}) {
  return (
    <Stack gap={6}>
      <Text size="sm">
        {DECIDED[decision.decision].label} by <DeciderName decidedBy={decision.decidedBy} />{' '}
        <RelativeTime value={decision.decidedAt} />
      </Text>
      {decision.editedName !== null && (
        <Text size="sm">
          Runs <Code>{decision.editedName}</Code> instead
        </Text>
      )}
      {decision.editedArgs !== null && (
        <>
          <ArgsDiff
            agent={action.args}
            edited={decision.editedArgs}
            label="What the edit changed in the agent's arguments"
          />
          <JsonTree value={decision.editedArgs} label="Edited arguments" />
        </>
      )}
      {decision.response !== null && decision.response !== undefined && (
        <JsonTree value={decision.response} label="Response" />
      )}
      {decision.message !== null && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          “{decision.message}”
        </Text>
      )}
    </Stack>
  );
}

function EditForm({
  action,
  pending,
  onCancel,
  onSend,
}: {
  action: ActionRequestResponse;
  pending: boolean;
  onCancel: () => void;
  onSend: (edit: { editedArgs: JsonObject; editedName?: string }) => void;
}) {
  const [text, setText] = useState(() => prettyJson(action.args));
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const preview = parseEditedArgs(text);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parseEditedArgs(text);
        if (!parsed.ok) return setError(parsed.error);
        setError(null);
        const editedName = name.trim();
        onSend({
          editedArgs: parsed.value,
          ...(editedName === '' || editedName === action.name ? {} : { editedName }),
        });
      }}
    >
      <Stack gap="xs">
        <JsonInput
          ref={ref}
          label={`Edited arguments for ${action.name}`}
          description="A JSON object; it replaces the arguments the agent proposed. Ctrl+Enter sends."
          value={text}
          onChange={(value) => {
            setText(value);
            if (error !== null) {
              const parsed = parseEditedArgs(value);
              setError(parsed.ok ? null : parsed.error);
            }
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
              event.currentTarget.form?.requestSubmit();
          }}
          error={error}
          // The input's own check (on blur) shows this text rather than a bare red border.
          validationError={error ?? 'Not valid JSON.'}
          autosize
          minRows={4}
          maxRows={20}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {preview.ok && (
          <ArgsDiff
            agent={action.args}
            edited={preview.value}
            label="Changes against the agent's arguments"
          />
        )}
        <TextInput
          label="Run a different action instead (optional)"
          description={`Leave empty to run ${action.name} with the arguments above.`}
          placeholder={action.name}
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Group gap="xs">
          <Button type="submit" loading={pending}>
            Send edit
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MessageForm({
  kind,
  action,
  pending,
  onCancel,
  onSend,
}: {
  kind: 'reject' | 'respond';
  action: ActionRequestResponse;
  pending: boolean;
  onCancel: () => void;
  onSend: (message: string) => void;
}) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The form opens because the reviewer chose Reject or Respond: the message is where they type.
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (kind === 'respond' && message.trim() === '')
          return setError('Write the response the agent should receive.');
        onSend(message.trim());
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={
            kind === 'reject'
              ? `Reason for rejecting ${action.name} (optional)`
              : `Response to ${action.name}`
          }
          description={
            kind === 'reject'
              ? 'The agent receives it with the rejection. Ctrl+Enter sends.'
              : 'The agent receives it instead of running the action. Ctrl+Enter sends.'
          }
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
              event.currentTarget.form?.requestSubmit();
          }}
          error={error}
          required={kind === 'respond'}
          maxLength={10_000}
          autosize
          minRows={2}
          ref={ref}
        />
        <Group gap="xs">
          <Button type="submit" color={kind === 'reject' ? 'red' : 'grape'} loading={pending}>
            {kind === 'reject' ? `Reject ${action.name}` : 'Send response'}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
