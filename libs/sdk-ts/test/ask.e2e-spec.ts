// Typed human input against the live service: `interlock.ask` with a zod schema, a member
// answering over HTTP with a `response` the service validates, the SDK returning it parsed.
import { z } from 'zod';
import { AnswerDeclinedError, Interlock } from '../src';
import { decideWhenOpen, live, raw, runTag } from './support/live-service';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };

const Rollout = z
  .object({
    region: z.enum(['eu-west-1', 'us-east-1']).describe('Where to deploy first'),
    replicas: z.number().int().min(1).max(20).default(3),
    canary: z.boolean().optional(),
    teams: z.array(z.enum(['ops', 'payments'])).optional(),
  })
  .meta({ title: 'Rollout plan' });

describe('interlock.ask (live service)', () => {
  it('returns the typed answer a member gives, parsed by the schema (defaults applied)', async () => {
    const externalId = runTag('ask-');
    const [plan, [opened]] = await Promise.all([
      client.ask('Plan the rollout of api 1.4.2', Rollout, {
        description: 'Pick the first region.',
        args: { service: 'api' },
        interrupt: { externalId },
        wait,
      }),
      decideWhenOpen(externalId, () => [
        'respond',
        { response: { region: 'us-east-1', teams: ['ops'] } },
      ]),
    ]);
    // Typed: a Rollout, with the default the member left out filled in.
    const typed: z.infer<typeof Rollout> = plan;
    expect(typed).toEqual({ region: 'us-east-1', replicas: 3, teams: ['ops'] });
    expect(opened.actionRequests).toEqual([
      {
        name: 'answer',
        args: { service: 'api' },
        description: null,
        allowedDecisions: ['respond', 'reject'],
        responseSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          title: 'Rollout plan',
          properties: {
            region: {
              type: 'string',
              enum: ['eu-west-1', 'us-east-1'],
              description: 'Where to deploy first',
            },
            replicas: { type: 'integer', minimum: 1, maximum: 20, default: 3 },
            canary: { type: 'boolean' },
            teams: { type: 'array', items: { type: 'string', enum: ['ops', 'payments'] } },
          },
          required: ['region'],
        },
        actionDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        requiredApprovals: 1,
        approverTeam: null,
        approvals: [],
      },
    ]);
  });

  it('the service refuses an answer the schema does not allow; the member answers again', async () => {
    const externalId = runTag('ask-again-');
    const asking = client.ask('Plan it again', Rollout, { interrupt: { externalId }, wait });
    let id: string | undefined;
    for (let i = 0; i < 600 && id === undefined; i++) {
      const page = await raw('GET', `/api/interrupts?status=open&externalId=${externalId}`, {
        headers: { 'x-api-key': live.apiKey },
      });
      id = (page.body as { interrupts: { id: string }[] }).interrupts[0]?.id;
      if (id === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const answer = (response: Record<string, unknown>) =>
      raw('POST', `/api/interrupts/${id}/decisions`, {
        headers: { cookie: live.memberCookie },
        body: { actionName: 'answer', decision: 'respond', response },
      });
    const wrong = await answer({ region: 'mars' });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { message: string }).message).toBe(
      'response.region must be one of "eu-west-1", "us-east-1"',
    );
    expect((await answer({ region: 'eu-west-1', replicas: 5 })).status).toBe(201);
    expect(await asking).toEqual({ region: 'eu-west-1', replicas: 5 });
  });

  it("throws AnswerDeclinedError with the member's message when they decline", async () => {
    const externalId = runTag('ask-declined-');
    const [outcome] = await Promise.all([
      client.ask('Plan it', Rollout, { interrupt: { externalId }, wait }).then(
        () => undefined,
        (error: unknown) => error,
      ),
      decideWhenOpen(externalId, () => ['reject', { message: 'Wait for the freeze to end.' }]),
    ]);
    expect(outcome).toBeInstanceOf(AnswerDeclinedError);
    expect((outcome as AnswerDeclinedError).message).toBe(
      '"Plan it" was declined by SDK pro owner: Wait for the freeze to end.',
    );
    expect((outcome as AnswerDeclinedError).reviewerMessage).toBe('Wait for the freeze to end.');
  });
});
