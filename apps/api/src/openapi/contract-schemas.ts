import type { OpenAPIObject } from '@nestjs/swagger';
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
  // respond needs `message`. A union discriminated by `decision`.
  const decide = schemas.DecideInterruptDto as { properties: Record<string, Schema>; description?: string };
  const field = (name: string) => decide.properties[name];
  const variant = (decision: string, properties: string[], required: string[], description: string): Schema => ({
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
  schemas.ApproveDecision = variant('approve', ['message'], [], 'Run the action as the agent asked.');
  schemas.EditDecision = variant('edit', ['editedArgs', 'editedName', 'message'], ['editedArgs'], 'Run the action with other arguments (and, optionally, another name).');
  schemas.RejectDecision = variant('reject', ['message'], [], 'Do not run the action; optionally say why.');
  schemas.RespondDecision = variant('respond', ['message'], ['message'], 'Answer instead of running the action.');
  const variants = { approve: 'ApproveDecision', edit: 'EditDecision', reject: 'RejectDecision', respond: 'RespondDecision' };
  schemas.DecideInterruptDto = {
    description: 'One decision on one action request; the fields allowed depend on `decision`.',
    oneOf: Object.values(variants).map(ref),
    discriminator: {
      propertyName: 'decision',
      mapping: Object.fromEntries(Object.entries(variants).map(([decision, name]) => [decision, `#/components/schemas/${name}`])),
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

  // Who decided: a union told apart by `type` (the SDK generators drop the discriminator, and
  // the variants' required fields tell them apart as well).
  const deciders = { member: 'MemberDecidedBy', argus: 'ArgusDecidedBy', system: 'SystemDecidedBy' };
  schemas.DecidedBy = {
    description: "Who decided: a member (type member, with the member's id and name at the time), argus (the automatic classifier, with the rule) or the service itself (type system, with the reason).",
    oneOf: Object.values(deciders).map(ref),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(Object.entries(deciders).map(([type, name]) => [type, `#/components/schemas/${name}`])),
    },
  };
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
    description: 'A `message` event of the Live View: one message of the session (the event id is its number).',
    required: ['seq', 'role', 'content', 'createdAt'],
    properties: {
      seq: { type: 'integer', minimum: 1, description: 'Its number in the session; also the event id.' },
      role: ref('SessionMessageRole'),
      content: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  };
  const eventTypes = (schemas.OrganisationEventType as { enum?: string[] } | undefined)?.enum ?? [];
  const streams: Record<string, [string[], string, string][]> = {
    streamSession: [
      [['session'], 'SessionResponse', 'The session record: first, and again when it ends.'],
      [['message'], 'LiveViewMessage', 'One message; the event id is its number (resume with Last-Event-ID).'],
    ],
    streamEvents: [
      [['ready', 'reset'], 'EventStreamPosition', 'First: where the stream continues (reset: refetch first).'],
      [eventTypes, 'OrganisationEvent', 'One change; the event id is its audit sequence number.'],
    ],
  };
  for (const item of Object.values(document.paths)) {
    const operation = item.get;
    const events = operation?.operationId === undefined ? undefined : streams[operation.operationId];
    const media = (operation?.responses?.['200'] as { content?: Record<string, Schema> } | undefined)?.content?.['text/event-stream'];
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
