import { createHash } from 'node:crypto';
import request from 'supertest';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// SPEC §8e / issue 37 §4: every action request carries actionDigest — the hex SHA-256 of the
// RFC 8785 canonical JSON of {interruptId, name, args} — and every decision repeats it; an edit
// also carries the digest of the action as edited. The expected texts are written out here by
// hand (keys sorted, no whitespace), not computed with the service's own code.
describe('actionDigest on the interrupt record', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is on each action request at creation and on each decision, edits with the edited digest too', async () => {
    const created = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({
        title: 'Pay',
        actionRequests: [
          {
            name: 'pay',
            args: { to: 'Zoë', amount: 40.5, meta: { z: true, a: null }, tags: ['x'] },
          },
          { name: 'notify' },
        ],
      });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const payDigest = sha256(
      `{"args":{"amount":40.5,"meta":{"a":null,"z":true},"tags":["x"],"to":"Zoë"},"interruptId":"${id}","name":"pay"}`,
    );
    const notifyDigest = sha256(`{"args":{},"interruptId":"${id}","name":"notify"}`);
    expect(
      created.body.actionRequests.map((a: { actionDigest: string }) => a.actionDigest),
    ).toEqual([payDigest, notifyDigest]);

    expect(
      (
        await http()
          .post(`/api/interrupts/${id}/decisions`)
          .set('cookie', owner.cookie)
          .send({ actionName: 'pay', decision: 'edit', editedArgs: { to: 'Zoë', amount: 4 } })
      ).status,
    ).toBe(201);
    const decided = await http()
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'notify', decision: 'approve' });
    expect(decided.status).toBe(201);
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
    expect(read.body.status).toBe('answered');
    const byAction = Object.fromEntries(
      read.body.decisions.map((d: { actionName: string }) => [d.actionName, d]),
    );
    expect(byAction.pay).toMatchObject({
      actionDigest: payDigest,
      editedActionDigest: sha256(
        `{"args":{"amount":4,"to":"Zoë"},"interruptId":"${id}","name":"pay"}`,
      ),
    });
    expect(byAction.notify).toMatchObject({ actionDigest: notifyDigest, editedActionDigest: null });
    // The list renders the same record.
    const listed = await http().get('/api/interrupts').set('x-api-key', key);
    const inList = listed.body.interrupts.find((i: { id: string }) => i.id === id);
    expect(inList.actionRequests[0].actionDigest).toBe(payDigest);
    expect(inList.decisions).toEqual(read.body.decisions);
  });
});
