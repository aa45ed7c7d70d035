import { createHash } from 'node:crypto';
import { Interlock } from './client';
import {
  ActionDigestMismatchError,
  actionDigest,
  AskedInterrupts,
  canonicalJson,
  REMEMBERED_CREATES,
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

  it('hashes the same where the runtime has no global Web Crypto (Node 18): node:crypto serves', async () => {
    const global = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      expect((globalThis as { crypto?: unknown }).crypto).toBeUndefined();
      expect(await actionDigest(ID, 'pay', { to: 'Zoë', amount: 40.5 })).toBe(PAY);
    } finally {
      if (global) Object.defineProperty(globalThis, 'crypto', global);
    }
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

  describe('an interrupt this client opened (it remembers what it asked)', () => {
    const PAY_ACTION = { name: 'pay', args: { to: 'Zoë', amount: 40.5 } };
    const withoutDigests = (interrupt: ReturnType<typeof interruptWith>) => ({
      ...interrupt,
      actionRequests: interrupt.actionRequests.map(({ actionDigest: _, ...a }) => a),
      decisions: interrupt.decisions.map(({ actionDigest: _, editedActionDigest: __, ...d }) => d),
    });
    const opened = (digests: boolean) => {
      const open = { ...interruptWith(PAY), status: 'open', decisions: [] };
      return digests ? open : withoutDigests(open);
    };
    const clientAnswering = (created: unknown, answer: unknown) =>
      new Interlock({
        apiKey: 'ilk_test',
        baseURL: 'http://interlock.test',
        fetch: mockFetch(jsonResponse(201, created), jsonResponse(200, answer)).fetch,
      });
    const create = (
      client: Interlock,
      action: { name: string; args: Record<string, unknown> } = PAY_ACTION,
    ) => client.interrupts.create({ title: 'Pay', actionRequests: [action] });

    it('checks waitForAnswer(id) without the actions: about other arguments is refused', async () => {
      const other = await actionDigest(ID, 'pay', { to: 'Mallory', amount: 4050 });
      const client = clientAnswering(opened(true), interruptWith(other, other));
      const { id } = await create(client);
      const refused = client.interrupts.waitForAnswer(id);
      await expect(refused).rejects.toBeInstanceOf(ActionDigestMismatchError);
      await expect(refused).rejects.toMatchObject({ expected: PAY, received: other });
      const ok = clientAnswering(opened(true), interruptWith(PAY));
      await create(ok);
      expect((await ok.interrupts.waitForAnswer(ID)).status).toBe('answered');
    });

    it('refuses an answer stripped of the digests the service sent at create, typed', async () => {
      const client = clientAnswering(opened(true), withoutDigests(interruptWith(PAY)));
      await create(client);
      await expect(client.interrupts.waitForAnswer(ID)).rejects.toMatchObject({
        name: 'ActionDigestMismatchError',
        actionName: 'pay',
        expected: PAY,
        received: undefined,
      });
      // Even when the caller passes the actions itself.
      const again = clientAnswering(opened(true), withoutDigests(interruptWith(PAY)));
      await create(again);
      await expect(
        again.interrupts.waitForAnswer(ID, { actionRequests: [PAY_ACTION] }),
      ).rejects.toBeInstanceOf(ActionDigestMismatchError);
      // One digest stripped of two (the decision's) is refused as well.
      const half = {
        ...interruptWith(PAY),
        decisions: withoutDigests(interruptWith(PAY)).decisions,
      };
      const partly = clientAnswering(opened(true), half);
      await create(partly);
      await expect(partly.interrupts.waitForAnswer(ID)).rejects.toBeInstanceOf(
        ActionDigestMismatchError,
      );
    });

    it('refuses an answer cut of its lists or of an asked action where digests are required', async () => {
      const { actionRequests: _, ...noActions } = interruptWith(PAY);
      const { decisions: __, ...noDecisions } = interruptWith(PAY);
      const otherAction = {
        ...interruptWith(PAY),
        actionRequests: [{ ...interruptWith(PAY).actionRequests[0], name: 'refund' }],
        decisions: [],
      };
      for (const cut of [noActions, noDecisions, otherAction]) {
        const client = clientAnswering(opened(true), cut);
        await create(client);
        await expect(client.interrupts.waitForAnswer(ID)).rejects.toMatchObject({
          name: 'ActionDigestMismatchError',
          actionName: 'pay',
          received: undefined,
        });
        await expect(
          verifyDecisions(cut as never, [PAY_ACTION], { required: true }),
        ).rejects.toBeInstanceOf(ActionDigestMismatchError);
      }
      // The whole answer still passes.
      await expect(
        verifyDecisions(interruptWith(PAY) as never, [PAY_ACTION], { required: true }),
      ).resolves.toBeUndefined();
    });

    it('leaves an older service (no digests at create) unchecked, as documented', async () => {
      const client = clientAnswering(opened(false), withoutDigests(interruptWith(PAY)));
      await create(client);
      expect((await client.interrupts.waitForAnswer(ID)).status).toBe('answered');
      // verifyDecisions itself: required refuses what the default lets through.
      const older = withoutDigests(interruptWith(PAY));
      await expect(verifyDecisions(older as never, [PAY_ACTION])).resolves.toBeUndefined();
      await expect(
        verifyDecisions(older as never, [PAY_ACTION], { required: true }),
      ).rejects.toBeInstanceOf(ActionDigestMismatchError);
    });

    it('hashes the arguments as they went on the wire, so later changes to them do not count', async () => {
      const action = { name: 'pay', args: { to: 'Zoë', amount: 40.5 } as Record<string, unknown> };
      const client = clientAnswering(opened(true), interruptWith(PAY));
      await create(client, action);
      action.args.amount = 1;
      expect((await client.interrupts.waitForAnswer(ID)).status).toBe('answered');
    });

    it(`remembers the last ${REMEMBERED_CREATES} creates (by default), forgetting the oldest first`, async () => {
      expect(new AskedInterrupts().capacity).toBe(REMEMBERED_CREATES);
      const asked = new AskedInterrupts(2);
      const created = (id: string) =>
        ({
          id,
          actionRequests: [{ ...opened(true).actionRequests[0] }],
        }) as never;
      await asked.remember(created('a'), [PAY_ACTION]);
      await asked.remember(created('b'), [PAY_ACTION]);
      await asked.remember(created('a'), [PAY_ACTION]); // a replayed create counts as the newest
      await asked.remember(created('c'), [PAY_ACTION]);
      expect(asked.get('b')).toBeUndefined();
      expect(asked.get('a')?.expected.get('pay')).toBe(
        await actionDigest('a', 'pay', PAY_ACTION.args),
      );
      expect(asked.get('c')?.digested).toBe(true);
    });
  });
});
