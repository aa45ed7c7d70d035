import { createHash } from 'node:crypto';
import { Interlock } from './client';
import {
  ActionDigestMismatchError,
  actionDigest,
  canonicalJson,
  verifyDecisions,
} from './action-digest';
import { jsonResponse, mockFetch } from './testing/mock-fetch';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ID = '0b6c2f0e-6a3f-4c55-9f0e-2f8a1d3c4b5a';
// The canonical texts written out by hand (RFC 8785: keys sorted, no whitespace).
const PAY = sha256(`{"args":{"amount":40.5,"to":"Zoë"},"interruptId":"${ID}","name":"pay"}`);

const interruptWith = (decisionDigest: string | undefined, actionDigestValue = PAY) => ({
  id: ID,
  title: 'Pay',
  status: 'answered',
  actionRequests: [
    {
      name: 'pay',
      args: { to: 'Zoë', amount: 40.5 },
      description: null,
      allowedDecisions: ['approve'],
      actionDigest: actionDigestValue,
    },
  ],
  decisions: [
    {
      id: 'd1',
      actionName: 'pay',
      decision: 'approve',
      editedArgs: null,
      editedName: null,
      message: null,
      actionDigest: decisionDigest,
      editedActionDigest: null,
      decidedBy: { type: 'member', id: 'u1', name: 'Ada' },
      decidedAt: '2026-11-26T00:00:00.000Z',
    },
  ],
});

describe('action digests (SPEC §8e)', () => {
  it('canonicalises as RFC 8785: sorted keys at every depth, no whitespace, JSON numbers', () => {
    expect(canonicalJson({ b: [1, { d: true, c: null }], a: 'é', n: 1e21, f: 0.1 })).toBe(
      '{"a":"é","b":[1,{"c":null,"d":true}],"f":0.1,"n":1e+21}',
    );
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(TypeError);
  });

  it('hashes {interruptId, name, args} as the service does', async () => {
    expect(await actionDigest(ID, 'pay', { to: 'Zoë', amount: 40.5 })).toBe(PAY);
    expect(await actionDigest(ID, 'ping', undefined)).toBe(
      sha256(`{"args":{},"interruptId":"${ID}","name":"ping"}`),
    );
  });

  it('accepts decisions about the actions asked; refuses any other, typed', async () => {
    const asked = [{ name: 'pay', args: { amount: 40.5, to: 'Zoë' } }];
    await expect(verifyDecisions(interruptWith(PAY) as never, asked)).resolves.toBeUndefined();
    const changed = [{ name: 'pay', args: { amount: 4050, to: 'Zoë' } }];
    const refused = verifyDecisions(interruptWith(PAY) as never, changed);
    await expect(refused).rejects.toBeInstanceOf(ActionDigestMismatchError);
    await expect(refused).rejects.toMatchObject({
      interruptId: ID,
      actionName: 'pay',
      received: PAY,
    });
    // The decision's digest differs from the action's: the service answered about something else.
    await expect(
      verifyDecisions(interruptWith('0'.repeat(64)) as never, asked),
    ).rejects.toBeInstanceOf(ActionDigestMismatchError);
    // A service older than digests sends none: nothing to check.
    const older = interruptWith(undefined);
    delete (older.actionRequests[0] as { actionDigest?: string }).actionDigest;
    await expect(verifyDecisions(older as never, changed)).resolves.toBeUndefined();
  });

  it('waitForAnswer refuses to return a decision about other arguments', async () => {
    const { fetch } = mockFetch(jsonResponse(200, interruptWith(PAY)));
    const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
    await expect(
      client.interrupts.waitForAnswer(ID, {
        actionRequests: [{ name: 'pay', args: { amount: 1, to: 'Mallory' } }],
      }),
    ).rejects.toBeInstanceOf(ActionDigestMismatchError);
    const { fetch: again } = mockFetch(jsonResponse(200, interruptWith(PAY)));
    const ok = new Interlock({
      apiKey: 'ilk_test',
      baseURL: 'http://interlock.test',
      fetch: again,
    });
    const answered = await ok.interrupts.waitForAnswer(ID, {
      actionRequests: [{ name: 'pay', args: { to: 'Zoë', amount: 40.5 } }],
    });
    expect(answered.status).toBe('answered');
  });
});
