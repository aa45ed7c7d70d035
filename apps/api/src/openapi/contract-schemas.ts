import type { OpenAPIObject } from '@nestjs/swagger';
import { POLICY_MAX_LENGTH } from '../classification/cedar-policy';
import {
  ARG_OPS,
  ARG_PATH_PATTERN,
  OUTCOME_TYPES,
  RISKS,
  ROUTE_PRIORITIES,
  RULE_LIMITS,
} from '../classification/rule-engine';
import { NOT_BLANK_PATTERN, NUL_FREE_PATTERN } from '../http/text-patterns';
import { LABEL_PATTERN } from '../interrupts/dto/create-interrupt.dto';
type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * Request shapes whose rules span fields, which class-validator states with conditions and
 * swagger's decorators cannot: stated here as JSON Schema, on top of the generated component
 * (whose fields, with their own constraints, are reused).
 */
export function stateCrossFieldRules(document: OpenAPIObject): void {
  const schemas = (document.components ?? {}).schemas as Record<string, Schema>;

  // A decision: `editedArgs` belongs to edit (and is required there), `editedName` too; a
  // respond needs `message` or (typed input) `response`. A union discriminated by `decision`.
  const decide = schemas.DecideInterruptDto as {
    properties: Record<string, Schema>;
    description?: string;
  };
  const field = (name: string) => decide.properties[name];
  const variant = (
    decision: string,
    properties: string[],
    required: string[],
    description: string,
  ): Schema => ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['actionName', 'decision', ...required],
    properties: {
      actionName: field('actionName'),
      decision: { type: 'string', enum: [decision] },
      ...Object.fromEntries(properties.map((name) => [name, field(name)])),
    },
  });
  schemas.ApproveDecision = variant(
    'approve',
    ['message'],
    [],
    'Run the action as the agent asked.',
  );
  schemas.EditDecision = variant(
    'edit',
    ['editedArgs', 'editedName', 'message'],
    ['editedArgs'],
    'Run the action with other arguments (and, optionally, another name).',
  );
  schemas.RejectDecision = variant(
    'reject',
    ['message'],
    [],
    'Do not run the action; optionally say why.',
  );
  schemas.RespondDecision = {
    ...variant(
      'respond',
      ['message', 'response'],
      [],
      'Answer instead of running the action: a message, or (an action with a responseSchema) a response valid against it, or both.',
    ),
    anyOf: [{ required: ['message'] }, { required: ['response'] }],
  };
  const variants = {
    approve: 'ApproveDecision',
    edit: 'EditDecision',
    reject: 'RejectDecision',
    respond: 'RespondDecision',
  };
  schemas.DecideInterruptDto = {
    description: 'One decision on one action request; the fields allowed depend on `decision`.',
    oneOf: Object.values(variants).map(ref),
    discriminator: {
      propertyName: 'decision',
      mapping: Object.fromEntries(
        Object.entries(variants).map(([decision, name]) => [
          decision,
          `#/components/schemas/${name}`,
        ]),
      ),
    },
  };

  // An assignment: to a member or to a team, exactly one of them.
  const assign = schemas.AssignInterruptDto as { properties: Record<string, Schema> };
  const one = (name: string, description: string): Schema => ({
    type: 'object',
    description,
    additionalProperties: false,
    required: [name],
    properties: { [name]: assign.properties[name] },
  });
  schemas.AssignToMember = one('memberId', 'Assign to a member of the organisation.');
  schemas.AssignToTeam = one('teamId', 'Assign to a team of the organisation.');
  schemas.AssignInterruptDto = {
    description: 'To a member (memberId) or to a team (teamId): exactly one.',
    oneOf: [ref('AssignToMember'), ref('AssignToTeam')],
  };
  // An action's approver team: by id or by name, exactly one of the two (SPEC §8e). Said with
  // min/maxProperties, not oneOf: the SDK generators would make numbered models of a oneOf
  // reached through the property's allOf.
  schemas.ApproverTeamDto = {
    ...schemas.ApproverTeamDto,
    description:
      'The team whose members alone may decide the action: by id (teamId) or by name (teamName), exactly one.',
    minProperties: 1,
    maxProperties: 1,
  };

  // Routing at creation (SPEC §8e): assignTo names exactly one of its four fields (said as for
  // the approver team), and each label is a named string, so that the generators do not number
  // it against the rules' `labels`.
  const create = schemas.CreateInterruptDto as { properties: Record<string, Schema> };
  schemas.AssignToDto = {
    ...schemas.AssignToDto,
    description:
      'Whom to assign the interrupt to as it opens: a member by memberId or email, or a team by teamId or teamName — exactly one.',
    minProperties: 1,
    maxProperties: 1,
  };
  schemas.InterruptLabel = {
    type: 'string',
    minLength: 1,
    maxLength: 50,
    pattern: LABEL_PATTERN.source,
    description: 'A label: 1 to 50 ASCII letters, digits and _ . : / + - (no spaces).',
  };
  create.properties.labels = { ...create.properties.labels, items: ref('InterruptLabel') };

  // Who decided: a union told apart by `type` (the SDK generators drop the discriminator, and
  // the variants' required fields tell them apart as well).
  const deciders = {
    member: 'MemberDecidedBy',
    argus: 'ArgusDecidedBy',
    system: 'SystemDecidedBy',
  };
  schemas.DecidedBy = {
    description:
      "Who decided: a member (type member, with the member's id and name at the time), argus (the automatic classifier, with the rule) or the service itself (type system, with the reason).",
    oneOf: Object.values(deciders).map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        Object.entries(deciders).map(([type, name]) => [type, `#/components/schemas/${name}`]),
      ),
    },
  };
}

/**
 * A classification rule's `match` and `outcome` (SPEC §8d), as the rule engine checks them
 * (classification/rule-engine.ts): the DTOs take them as objects and the engine names the
 * offending path; the contract states their shapes here.
 */
export function stateClassificationRules(document: OpenAPIObject): void {
  const schemas = (document.components ?? {}).schemas as Record<string, Schema>;
  const text = (max: number, pattern = NUL_FREE_PATTERN): Schema => ({
    type: 'string',
    minLength: 1,
    maxLength: max,
    pattern,
  });
  const list = (items: Schema, max: number, description: string): Schema => ({
    type: 'array',
    minItems: 1,
    maxItems: max,
    uniqueItems: true,
    items,
    description,
  });
  const predicate = (ops: string[], value: Schema, description: string): Schema => ({
    type: 'object',
    additionalProperties: false,
    required: ['path', 'op', 'value'],
    description,
    properties: {
      path: {
        type: 'string',
        maxLength: RULE_LIMITS.pathLength,
        pattern: ARG_PATH_PATTERN,
        description: 'A dotted path into the arguments, e.g. amount or customer.tier.',
      },
      op: { type: 'string', enum: ops },
      value,
    },
  });
  schemas.RuleEqualsPredicate = predicate(
    ['eq', 'ne'],
    ref('JsonValue'),
    'Equal (ne: not equal) as JSON: same type and value.',
  );
  schemas.RuleInPredicate = predicate(
    ['in'],
    { type: 'array', minItems: 1, maxItems: RULE_LIMITS.inValues, items: ref('JsonValue') },
    'Equal to one of the values.',
  );
  schemas.RuleComparePredicate = predicate(
    ['lt', 'lte', 'gt', 'gte'],
    { type: 'number' },
    'A numeric comparison; only a JSON number compares (a string "50" does not).',
  );
  schemas.RuleGlobPredicate = predicate(
    ['matches'],
    text(RULE_LIMITS.stringValue),
    'A string matching a glob: * any run of characters, ? one.',
  );
  schemas.RuleArgPredicate = {
    description: `A condition on one argument (ops ${ARG_OPS.join(', ')}). An argument that is absent fails every op but ne.`,
    oneOf: [
      'RuleEqualsPredicate',
      'RuleInPredicate',
      'RuleComparePredicate',
      'RuleGlobPredicate',
    ].map(ref),
  };
  schemas.RuleActionPattern = {
    ...text(RULE_LIMITS.nameLength),
    description: 'An action name, or a glob of them.',
  };
  schemas.RuleMatch = {
    type: 'object',
    additionalProperties: false,
    description: 'What a rule matches: every condition given must hold ({} matches every action).',
    properties: {
      actions: list(
        ref('RuleActionPattern'),
        RULE_LIMITS.names,
        'Action names, exact or globs (* any run of characters, ? one).',
      ),
      keyIds: list(
        { type: 'string', format: 'uuid' },
        RULE_LIMITS.names,
        'The API key that opened the interrupt.',
      ),
      sessionIds: list(
        { type: 'string', format: 'uuid' },
        RULE_LIMITS.names,
        'The session the interrupt is linked to.',
      ),
      titleWords: list(
        {
          type: 'string',
          minLength: 1,
          maxLength: RULE_LIMITS.wordLength,
          pattern:
            '^[^\\u0000\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+$',
        },
        RULE_LIMITS.words,
        'Words the title must contain, each (case- and accent-insensitively).',
      ),
      args: {
        type: 'array',
        minItems: 1,
        maxItems: RULE_LIMITS.predicates,
        items: ref('RuleArgPredicate'),
        description: 'Conditions on the arguments, each.',
      },
      risk: list(
        { type: 'string', enum: [...RISKS] },
        RISKS.length,
        "The external classifier's risk for the action (SPEC §8d): matches nothing where it gave none.",
      ),
      labels: list(
        text(RULE_LIMITS.wordLength),
        RULE_LIMITS.labels,
        "The external classifier's labels for the action, any of them: matches nothing where it gave none.",
      ),
    },
  };
  const outcome = (
    type: string,
    description: string,
    properties: Record<string, Schema> = {},
    required: string[] = [],
  ): Schema => ({
    type: 'object',
    additionalProperties: false,
    description,
    required: ['type', ...required],
    properties: { type: { type: 'string', enum: [type] }, ...properties },
  });
  schemas.ApproveOutcome = outcome('approve', 'Approve the action (only where it allows approve).');
  schemas.RejectOutcome = outcome(
    'reject',
    'Reject the action with the message the agent receives (only where it allows reject).',
    { message: text(RULE_LIMITS.message, NOT_BLANK_PATTERN) },
    ['message'],
  );
  schemas.RouteToMember = {
    type: 'object',
    additionalProperties: false,
    required: ['memberId'],
    properties: { memberId: { type: 'string', format: 'uuid' } },
  };
  schemas.RouteToTeam = {
    type: 'object',
    additionalProperties: false,
    required: ['teamId'],
    properties: { teamId: { type: 'string', format: 'uuid' } },
  };
  schemas.RouteOutcome = outcome(
    'route',
    'Leave the action for a person, assigned to a member or team and/or escalated, and/or needing several approvals or approvals from one team (SPEC §8d quorum).',
    {
      assignTo: { oneOf: [ref('RouteToMember'), ref('RouteToTeam')] },
      escalate: { type: 'boolean' },
      requiredApprovals: {
        type: 'integer',
        minimum: 2,
        maximum: RULE_LIMITS.requiredApprovals,
        description:
          "The action needs this many members' approvals (the agent's own requiredApprovals stays when higher).",
      },
      // Only this team's members may decide the action (it replaces the agent's approverTeam).
      approverTeam: ref('RouteToTeam'),
      priority: {
        type: 'string',
        enum: [...ROUTE_PRIORITIES],
        description: "The interrupt's priority (SPEC §8e), replacing the one its agent gave.",
      },
    },
  );
  schemas.RequireHumanOutcome = outcome(
    'require_human',
    'Leave the action for a person, and stop later rules from deciding it.',
  );
  schemas.PolicyOutcome = outcome(
    'policy',
    'Cedar policies decide (validated against the schema on save; SPEC §8d): permit approves, forbid rejects with its @message, neither leaves the action to later rules; an evaluation error sends it to a person.',
    {
      policy: {
        ...text(POLICY_MAX_LENGTH, NOT_BLANK_PATTERN),
        example: 'permit (principal, action, resource) when { resource.name == "refund" };',
      },
    },
    ['policy'],
  );
  const outcomes = {
    approve: 'ApproveOutcome',
    reject: 'RejectOutcome',
    route: 'RouteOutcome',
    require_human: 'RequireHumanOutcome',
    policy: 'PolicyOutcome',
  };
  schemas.RuleOutcome = {
    description: `What a rule does: ${OUTCOME_TYPES.join(', ')}.`,
    oneOf: Object.values(outcomes).map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        Object.entries(outcomes).map(([type, name]) => [type, `#/components/schemas/${name}`]),
      ),
    },
  };
  for (const name of [
    'CreateClassificationRuleDto',
    'UpdateClassificationRuleDto',
    'ClassificationRuleResponse',
    'ClassificationRuleListItem',
  ]) {
    const properties = (schemas[name] as { properties: Record<string, Schema> }).properties;
    properties.match = ref('RuleMatch');
    properties.outcome = ref('RuleOutcome');
  }
  const suggested = (schemas.SuggestedRule as { properties: Record<string, Schema> }).properties;
  suggested.match = ref('RuleMatch');
  suggested.outcome = ref('ApproveOutcome');
  const alwaysAllow = (schemas.AlwaysAllowDto as { properties: Record<string, Schema> }).properties;
  alwaysAllow.args = { ...alwaysAllow.args, items: ref('RuleArgPredicate') };
}

/**
 * The Server-Sent Events of the two streams. In OpenAPI 3.0 a `text/event-stream` response's
 * `schema` describes one event (`{event, data, id?, retry?}`, as the EventSource API hands it
 * over); `data` is JSON text whose schema, per event name, is its `contentSchema`.
 */
export function stateEventStreams(document: OpenAPIObject): void {
  const schemas = (document.components ?? {}).schemas as Record<string, Schema>;
  schemas.LiveViewMessage = {
    type: 'object',
    description:
      'A `message` event of the Live View: one message of the session (the event id is its number).',
    required: ['seq', 'role', 'content', 'createdAt'],
    properties: {
      seq: {
        type: 'integer',
        minimum: 1,
        description: 'Its number in the session; also the event id.',
      },
      role: ref('SessionMessageRole'),
      content: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  };
  const eventTypes = (schemas.OrganisationEventType as { enum?: string[] } | undefined)?.enum ?? [];
  const streams: Record<string, [string[], string, string][]> = {
    streamSession: [
      [['session'], 'SessionResponse', 'The session record: first, and again when it ends.'],
      [
        ['message'],
        'LiveViewMessage',
        'One message; the event id is its number (resume with Last-Event-ID).',
      ],
    ],
    streamEvents: [
      [
        ['ready', 'reset'],
        'EventStreamPosition',
        'First: where the stream continues (reset: refetch first).',
      ],
      [eventTypes, 'OrganisationEvent', 'One change; the event id is its audit sequence number.'],
    ],
  };
  for (const item of Object.values(document.paths)) {
    const operation = item.get;
    const events =
      operation?.operationId === undefined ? undefined : streams[operation.operationId];
    const media = (
      operation?.responses?.['200'] as { content?: Record<string, Schema> } | undefined
    )?.content?.['text/event-stream'];
    if (events === undefined || media === undefined) continue;
    media.schema = {
      type: 'object',
      description:
        'One Server-Sent Event of the stream (text/event-stream): its name, its JSON data and, for resumable events, its id. ' +
        'Comment lines are heartbeats.',
      required: ['event', 'data'],
      properties: {
        event: { type: 'string' },
        data: { type: 'string' },
        id: { type: 'string', pattern: '^[0-9]+$' },
        retry: { type: 'string', pattern: '^[0-9]+$' },
      },
      oneOf: events.map(([names, data, description]) => ({
        description,
        properties: {
          event: { type: 'string', enum: names },
          data: { type: 'string', contentMediaType: 'application/json', contentSchema: ref(data) },
        },
      })),
    };
  }
}
