import { WebhookSender } from '../webhooks/webhook-sender';
import { ExternalClassifier, highestRisk, parseClassifierAnswer } from './external-classifier';

// The external classifier's answer and guard (SPEC §8d): what a well-formed answer is, and that
// in production no request leaves for a private address (the webhooks' SSRF rules).
describe('the external classifier', () => {
  it('reads risk, labels and reasons; ignores other fields; folds repeated labels', () => {
    expect(
      parseClassifierAnswer(
        '{"risk":"high","labels":["prod","prod","money"],"reasons":["Deploys."],"model":"x"}',
      ),
    ).toEqual({ risk: 'high', labels: ['prod', 'money'], reasons: ['Deploys.'] });
    expect(parseClassifierAnswer('{"risk":"low"}')).toEqual({
      risk: 'low',
      labels: [],
      reasons: [],
    });
  });

  it.each([
    ['', 'The answer is not JSON.'],
    ['[1]', 'The answer is not a JSON object {risk, labels, reasons}.'],
    ['{"labels":[]}', "The answer's risk must be one of low, medium, high, critical."],
    ['{"risk":"HIGH"}', "The answer's risk must be one of low, medium, high, critical."],
    [
      '{"risk":"low","labels":[""]}',
      "The answer's labels must be an array of at most 20 strings of 1 to 50 characters.",
    ],
    [
      `{"risk":"low","labels":${JSON.stringify(Array.from({ length: 21 }, (_, i) => `l${i}`))}}`,
      "The answer's labels must be an array of at most 20 strings of 1 to 50 characters.",
    ],
    [
      `{"risk":"low","reasons":["${'x'.repeat(501)}"]}`,
      "The answer's reasons must be an array of at most 20 strings of 1 to 500 characters.",
    ],
  ])('refuses %s: %s', (body, error) => {
    expect(parseClassifierAnswer(body)).toBe(error);
  });

  it('takes the highest risk', () => {
    expect(highestRisk([])).toBeNull();
    expect(highestRisk(['low', 'critical', 'medium'])).toBe('critical');
  });

  it('in production, sends nothing to a private or loopback address and says why', async () => {
    const sender = new WebhookSender(1000, 1);
    const send = jest.spyOn(sender, 'send');
    const classifier = new ExternalClassifier(
      sender,
      async () => [{ address: '10.1.2.3', family: 4 }],
      true,
    );
    const request = {
      title: 't',
      description: null,
      sessionId: null,
      key: null,
      action: { name: 'a', args: {}, allowedDecisions: ['approve' as const] },
    };
    const target = (url: string) => ({ url, timeoutMs: 1000, secrets: ['whsec_MDEyMzQ1Njc4OQ=='] });
    for (const url of ['https://127.0.0.1/x', 'https://internal.example.com/x'])
      expect(await classifier.classify(target(url), request)).toEqual({
        ok: false,
        ms: expect.any(Number),
        error: 'url must not reach a private, loopback, link-local or metadata address.',
      });
    expect(await classifier.classify(target('http://localhost:1/x'), request)).toMatchObject({
      ok: false,
      error: 'url must use https.',
    });
    expect(send).not.toHaveBeenCalled();
    classifier.onModuleDestroy();
  });
});
