import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Typed human input (issue 32 §2, SPEC §5): an action request's responseSchema, checked when the
// interrupt is opened, and the member's response, checked against it when they answer.
describe('typed input: responseSchema and response (SPEC §5)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;

  const http = () => request(t.app.getHttpServer());
  const open = (body: Record<string, unknown>) =>
    http().post('/api/interrupts').set('x-api-key', key).send(body);
  const decide = (id: string, body: Record<string, unknown>) =>
    http().post(`/api/interrupts/${id}/decisions`).set('cookie', owner.cookie).send(body);

  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    title: 'Rollout',
    properties: {
      region: {
        type: 'string',
        title: 'Region',
        description: 'Where to deploy first',
        enum: ['eu-west-1', 'us-east-1'],
      },
      replicas: { type: 'integer', minimum: 1, maximum: 20, default: 3 },
      canary: { type: 'boolean' },
      note: { type: 'string', maxLength: 20 },
      share: { type: 'number', minimum: 0, maximum: 1 },
      teams: {
        type: 'array',
        items: { type: 'string', enum: ['ops', 'payments', 'search'] },
        minItems: 1,
        uniqueItems: true,
      },
    },
    required: ['region', 'replicas'],
    additionalProperties: false,
  };
  const typed = (title: string, responseSchema: unknown = schema, extra = {}) => ({
    title,
    actionRequests: [
      {
        name: 'plan',
        args: { service: 'api' },
        allowedDecisions: ['respond', 'reject'],
        responseSchema,
        ...extra,
      },
    ],
  });

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'typed' }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('round trip: the schema is kept on the action, a valid response is the decision, the key reads it', async () => {
    const created = await open(typed('Plan the rollout'));
    expect(created.status).toBe(201);
    expect(created.body.actionRequests).toEqual([
      {
        name: 'plan',
        args: { service: 'api' },
        description: null,
        allowedDecisions: ['respond', 'reject'],
        responseSchema: schema,
        actionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        requiredApprovals: 1,
        approverTeam: null,
        approvals: [],
      },
    ]);
    const id = created.body.id as string;
    const response = { region: 'eu-west-1', replicas: 4, canary: true, teams: ['ops', 'search'] };
    const decided = await decide(id, { actionName: 'plan', decision: 'respond', response });
    expect(decided.status).toBe(201);
    expect(decided.body.status).toBe('answered');
    expect(decided.body.decisions).toEqual([
      {
        id: expect.any(String),
        actionName: 'plan',
        decision: 'respond',
        editedArgs: null,
        editedName: null,
        message: null,
        response,
        actionDigest: created.body.actionRequests[0].actionDigest,
        editedActionDigest: null,
        decidedBy: { type: 'member', id: expect.any(String), name: 'Ada Lovelace' },
        decidedAt: expect.any(String),
      },
    ]);
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.status).toBe(200);
    expect(read.body.decisions[0].response).toEqual(response);
    expect(read.body.actionRequests[0].responseSchema).toEqual(schema);
    // Kept as sent, key order too: the properties' order is the form's.
    expect(JSON.stringify(read.body.actionRequests[0].responseSchema)).toBe(JSON.stringify(schema));
  });

  it('actions without a schema read responseSchema null, their decisions response null', async () => {
    const created = await open({ title: 'Plain', actionRequests: [{ name: 'go' }] });
    expect(created.body.actionRequests[0].responseSchema).toBeNull();
    const decided = await decide(created.body.id, { actionName: 'go', decision: 'approve' });
    expect(decided.body.decisions[0].response).toBeNull();
  });

  it('a respond may carry a message beside the response; a reject needs no response', async () => {
    const both = await open(typed('Both'));
    const answered = await decide(both.body.id, {
      actionName: 'plan',
      decision: 'respond',
      response: { region: 'us-east-1', replicas: 1 },
      message: 'Small first.',
    });
    expect(answered.status).toBe(201);
    expect(answered.body.decisions[0]).toMatchObject({
      message: 'Small first.',
      response: { region: 'us-east-1', replicas: 1 },
    });
    const rejected = await open(typed('Rejected'));
    const no = await decide(rejected.body.id, {
      actionName: 'plan',
      decision: 'reject',
      message: 'Not now.',
    });
    expect(no.status).toBe(201);
    expect(no.body.decisions[0].response).toBeNull();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing required field', { region: 'eu-west-1' }, 'response.replicas is required'],
    [
      'a value outside the enum',
      { region: 'mars-1', replicas: 2 },
      'response.region must be one of "eu-west-1", "us-east-1"',
    ],
    [
      'a string for an integer',
      { region: 'eu-west-1', replicas: '2' },
      'response.replicas must be an integer',
    ],
    [
      'a fraction for an integer',
      { region: 'eu-west-1', replicas: 2.5 },
      'response.replicas must be an integer',
    ],
    [
      'under the minimum',
      { region: 'eu-west-1', replicas: 0 },
      'response.replicas must be at least 1',
    ],
    [
      'over the maximum',
      { region: 'eu-west-1', replicas: 21 },
      'response.replicas must be at most 20',
    ],
    [
      'too long',
      { region: 'eu-west-1', replicas: 1, note: 'x'.repeat(21) },
      'response.note must be at most 20 characters',
    ],
    [
      'a boolean as text',
      { region: 'eu-west-1', replicas: 1, canary: 'yes' },
      'response.canary must be a boolean',
    ],
    [
      'an unknown field',
      { region: 'eu-west-1', replicas: 1, colour: 'red' },
      "response.colour is not a field of this action's responseSchema",
    ],
    [
      'an empty array',
      { region: 'eu-west-1', replicas: 1, teams: [] },
      'response.teams must have at least 1 items',
    ],
    [
      'a repeated item',
      { region: 'eu-west-1', replicas: 1, teams: ['ops', 'ops'] },
      'response.teams must not repeat an item',
    ],
    [
      'an item outside the enum',
      { region: 'eu-west-1', replicas: 1, teams: ['hr'] },
      'response.teams[0] must be one of "ops", "payments", "search"',
    ],
  ])(
    'refuses a response with %s: 400 naming the field, nothing written',
    async (_label, response, message) => {
      const created = await open(typed(`Refused ${_label}`));
      const res = await decide(created.body.id, {
        actionName: 'plan',
        decision: 'respond',
        response,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        code: 'VALIDATION_FAILED',
        message,
        requestId: expect.any(String),
      });
      const rows = await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM interrupt_decisions WHERE interrupt_id = $1`, [
          created.body.id,
        ]);
      expect(rows[0].n).toBe(0);
    },
  );

  it('a respond without response on a typed action is 400; a response on an untyped action is 409; response only with respond', async () => {
    const created = await open(typed('No answer'));
    const bare = await decide(created.body.id, {
      actionName: 'plan',
      decision: 'respond',
      message: 'Just words.',
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe(
      'response is required: action plan asks for a typed answer (its responseSchema).',
    );
    const withReject = await decide(created.body.id, {
      actionName: 'plan',
      decision: 'reject',
      response: { region: 'eu-west-1', replicas: 1 },
    });
    expect(withReject.status).toBe(400);
    expect(withReject.body.message).toBe('response is only allowed with decision respond');
    const notObject = await decide(created.body.id, {
      actionName: 'plan',
      decision: 'respond',
      response: ['eu-west-1'],
    });
    expect(notObject.status).toBe(400);
    expect(notObject.body.message).toBe('response must be an object');

    const plain = await open({
      title: 'Untyped',
      actionRequests: [{ name: 'ask', allowedDecisions: ['respond'] }],
    });
    const stray = await decide(plain.body.id, {
      actionName: 'ask',
      decision: 'respond',
      message: 'ok',
      response: { a: 1 },
    });
    expect(stray.status).toBe(409);
    expect(stray.body.message).toBe(
      'response is only allowed for an action with a responseSchema; action ask has none.',
    );
    // And a respond with neither a message nor a response is refused as before.
    const empty = await decide(plain.body.id, { actionName: 'ask', decision: 'respond' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain(
      'message must be a string (required with decision respond)',
    );
  });

  it.each<[string, unknown, string]>([
    ['not an object', ['x'], 'actionRequests.0.responseSchema must be an object'],
    [
      'another root type',
      { type: 'array', properties: {} },
      'actionRequests.0.responseSchema is not valid: type must be object',
    ],
    [
      'no fields',
      { type: 'object', properties: {} },
      'actionRequests.0.responseSchema is not valid: properties must have 1 to 50 fields',
    ],
    [
      'a nested object',
      { type: 'object', properties: { a: { type: 'object', properties: {} } } },
      'actionRequests.0.responseSchema is not valid: properties.a.type must be one of string, number, integer, boolean, array',
    ],
    [
      'an array of arrays',
      { type: 'object', properties: { a: { type: 'array', items: { type: 'array' } } } },
      'actionRequests.0.responseSchema is not valid: properties.a.items.type must be one of string, number, integer, boolean',
    ],
    [
      'a keyword outside the subset',
      { type: 'object', properties: { a: { type: 'string', pattern: '^x' } } },
      'actionRequests.0.responseSchema is not valid: properties.a.pattern is not supported',
    ],
    [
      'anyOf (an optional pydantic field)',
      { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
      'actionRequests.0.responseSchema is not valid: properties.a.type must be one of string, number, integer, boolean, array',
    ],
    [
      'required naming no field',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
      'actionRequests.0.responseSchema is not valid: required names b, which is not a field',
    ],
    [
      'an enum of the wrong type',
      { type: 'object', properties: { a: { type: 'integer', enum: [1, 'two'] } } },
      'actionRequests.0.responseSchema is not valid: properties.a.enum must be an integer (each value)',
    ],
    [
      'a default outside its field',
      { type: 'object', properties: { a: { type: 'integer', minimum: 1, default: 0 } } },
      'actionRequests.0.responseSchema is not valid: properties.a.default must be at least 1',
    ],
    [
      '$ref',
      { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: {} },
      'actionRequests.0.responseSchema is not valid: $defs is not supported',
    ],
  ])(
    'refuses a responseSchema that is %s: 400 naming where',
    async (_label, responseSchema, message) => {
      const res = await open(typed('Bad schema', responseSchema));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toBe(message);
    },
  );

  it('a responseSchema needs respond among the allowed decisions', async () => {
    const res = await open(typed('No respond', schema, { allowedDecisions: ['approve'] }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'actionRequests.0.responseSchema needs respond among allowedDecisions',
    );
  });
});
