// requireApproval against the live service: a member decides over HTTP (the session cookie), and
// the wrapped function runs with the approved or edited arguments, or not at all.
import { ApprovalRejectedError, Interlock, requireApproval } from '../src';
import { decideWhenOpen, live, runTag } from './support/live-service';

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });
const wait = { pollInterval: 100, timeout: 120_000 };

describe('requireApproval (live service)', () => {
  it('runs an approved call with its arguments, shown to the member as the action args', async () => {
    const externalId = runTag('gate-approve-');
    const ran: unknown[] = [];
    const refund = requireApproval(
      async function refund(order: { orderId: string; amount: number }) {
        ran.push(order);
        return `refunded ${order.amount}`;
      },
      { client, wait, title: (o) => `Refund order ${o.orderId}?`, interrupt: { externalId } },
    );
    const [result, [opened]] = await Promise.all([
      refund({ orderId: 'A-1', amount: 40 }),
      decideWhenOpen(externalId, () => ['approve']),
    ]);
    expect(result).toBe('refunded 40');
    expect(ran).toEqual([{ orderId: 'A-1', amount: 40 }]);
    expect(opened.title).toBe('Refund order A-1?');
    expect(opened.actionRequests).toEqual([
      expect.objectContaining({
        name: 'refund',
        args: { orderId: 'A-1', amount: 40 },
        allowedDecisions: ['approve', 'edit', 'reject'],
      }),
    ]);
  });

  it("runs an edited call with the member's arguments, positional parameters by name", async () => {
    const externalId = runTag('gate-edit-');
    const sent: [string, string][] = [];
    const sendEmail = requireApproval(
      (to: string, body: string) => {
        sent.push([to, body]);
        return sent.length;
      },
      { client, wait, name: 'send_email', params: ['to', 'body'], interrupt: { externalId } },
    );
    const [result, [opened]] = await Promise.all([
      sendEmail('ada@example.com', 'Hi'),
      decideWhenOpen(externalId, () => [
        'edit',
        { editedArgs: { to: 'ada@example.com', body: 'Hello, Ada.' } },
      ]),
    ]);
    expect(opened.title).toBe('Approve send_email?');
    expect(opened.actionRequests[0].args).toEqual({ to: 'ada@example.com', body: 'Hi' });
    expect(result).toBe(1);
    expect(sent).toEqual([['ada@example.com', 'Hello, Ada.']]);
  });

  it("throws ApprovalRejectedError with the member's message on a rejection, without running the call", async () => {
    const externalId = runTag('gate-reject-');
    let ran = false;
    const drop = requireApproval(
      async function dropTable(table: string) {
        ran = true;
        return table;
      },
      { client, wait, interrupt: { externalId }, allowedDecisions: ['approve', 'reject'] },
    );
    const [error, [opened]] = await Promise.all([
      drop('users').catch((e: unknown) => e),
      decideWhenOpen(externalId, () => ['reject', { message: 'Not on a Friday.' }]),
    ]);
    expect(opened.actionRequests[0]).toMatchObject({
      name: 'dropTable',
      args: { arguments: ['users'] },
      allowedDecisions: ['approve', 'reject'],
    });
    expect(error).toBeInstanceOf(ApprovalRejectedError);
    const rejected = error as ApprovalRejectedError;
    expect(rejected.reviewerMessage).toBe('Not on a Friday.');
    expect(rejected.message).toMatch(/^dropTable was rejected by .+: Not on a Friday\.$/);
    expect(rejected.interrupt.id).toBe(opened.id);
    expect(ran).toBe(false);
  });
});
