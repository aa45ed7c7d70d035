import { ActionDigestMismatchError } from './action-digest';
import { InterlockError } from './errors';
import {
  applyOpenAIAgentsDecisions,
  OPENAI_AGENTS_METADATA_KEY,
  openAIAgentsInterrupt,
  type OpenAIAgentsApprovalItem,
  resumeOpenAIAgentsFromWebhook,
} from './openai-agents';
import { ANSWERED_INTERRUPT_ID, answeredAs, decided, forged } from './testing/answered';
import type { Decision } from './types';
import { resumeSigningSecret, WebhookVerificationError } from './webhooks';

function fakeState() {
  const items: OpenAIAgentsApprovalItem[] = [
    {
      name: 'send_email',
      arguments: '{"to":"ada@example.com"}',
      rawItem: { callId: 'c1' },
      agent: { name: 'mailer' },
    },
    { name: 'send_email', arguments: '{"to":"bob@example.com"}', rawItem: { callId: 'c2' } },
    { name: 'delete_file', arguments: 'not json', rawItem: { callId: 'c3' } },
  ];
  const calls: [string, string, string | undefined][] = [];
  return {
    calls,
    getInterruptions: () => items,
    approve: (item: OpenAIAgentsApprovalItem) =>
      void calls.push(['approve', String((item.rawItem as { callId: string }).callId), undefined]),
    reject: (item: OpenAIAgentsApprovalItem, options?: { message?: string }) =>
      void calls.push([
        'reject',
        String((item.rawItem as { callId: string }).callId),
        options?.message,
      ]),
    toString: () => '{"state":true}',
  };
}

/** The interrupt the service answers for `state`'s approvals (the serialised state kept). */
const answeredWith = (state: ReturnType<typeof fakeState>, status: string, decisions: Decision[]) =>
  answeredAs(openAIAgentsInterrupt(state, {}, true), status, decisions);

describe('the OpenAI Agents bridge', () => {
  it('opens one action per call, names unique, only approve or reject', () => {
    const params = openAIAgentsInterrupt({ state: fakeState() }, { externalId: 'run-1' });
    expect(params.title).toBe('Approve 3 tool calls: send_email, delete_file?');
    expect(params.externalId).toBe('run-1');
    expect(params.actionRequests).toEqual([
      {
        name: 'send_email',
        args: { to: 'ada@example.com' },
        allowedDecisions: ['approve', 'reject'],
        description: 'mailer wants to call send_email.',
      },
      {
        name: 'send_email #2',
        args: { to: 'bob@example.com' },
        allowedDecisions: ['approve', 'reject'],
      },
      {
        name: 'delete_file',
        args: { arguments: 'not json' },
        allowedDecisions: ['approve', 'reject'],
      },
    ]);
    expect(params.metadata?.[OPENAI_AGENTS_METADATA_KEY]).toEqual({
      v: 1,
      calls: [
        ['send_email', 'c1'],
        ['send_email #2', 'c2'],
        ['delete_file', 'c3'],
      ],
    });
    expect(
      openAIAgentsInterrupt(fakeState(), {}, true).metadata?.[OPENAI_AGENTS_METADATA_KEY],
    ).toMatchObject({ state: '{"state":true}' });
  });

  it('applies the decisions by call id; a withdrawn request rejects what it left undecided', async () => {
    const state = fakeState();
    const answered = await answeredWith(state, 'answered', [
      decided('send_email #2', 'reject', 'Not Bob.'),
      decided('send_email', 'approve'),
      decided('delete_file', 'reject'),
    ]);
    await applyOpenAIAgentsDecisions(state, answered);
    expect(state.calls).toEqual([
      ['approve', 'c1', undefined],
      ['reject', 'c2', 'Not Bob.'],
      ['reject', 'c3', undefined],
    ]);
    const withdrawn = fakeState();
    await applyOpenAIAgentsDecisions(withdrawn, await answeredWith(withdrawn, 'withdrawn', []));
    expect(withdrawn.calls.map(([kind, , message]) => [kind, message])).toEqual(
      Array(3).fill(['reject', 'The request for approval was withdrawn; the tool did not run.']),
    );
  });

  it('refuses, and applies nothing, when a decision is not about the call the run holds (digest)', async () => {
    const state = fakeState();
    const answered = await answeredWith(state, 'answered', [
      decided('send_email', 'approve'),
      decided('send_email #2', 'approve'),
      decided('delete_file', 'approve'),
    ]);
    // The run now holds other arguments for c2 than the ones the member approved.
    const tampered = fakeState();
    tampered.getInterruptions()[1].arguments = '{"to":"mallory@example.com"}';
    const refused = applyOpenAIAgentsDecisions(tampered, answered);
    await expect(refused).rejects.toBeInstanceOf(ActionDigestMismatchError);
    await expect(refused).rejects.toThrow('action send_email #2 of interrupt');
    expect(tampered.calls).toEqual([]);
    // A decision whose digest was changed on the way is refused as well.
    await expect(
      applyOpenAIAgentsDecisions(fakeState(), forged(answered, 'delete_file')),
    ).rejects.toThrow(ActionDigestMismatchError);
  });

  it('resumes from a resumeUrl POST signed under the key, and refuses one that is not', async () => {
    const state = fakeState();
    const answered = await answeredWith(state, 'answered', [
      decided('send_email', 'approve'),
      decided('send_email #2', 'reject', 'Not Bob.'),
      decided('delete_file', 'reject'),
    ]);
    const apiKey = 'ilk_test_resume_key';
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'interrupt.answered',
      createdAt: new Date().toISOString(),
      organisationId: 'org',
      data: answered,
    });
    const signed = async (secret: string) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const crypto = globalThis.crypto.subtle;
      const key = await crypto.importKey(
        'raw',
        Buffer.from(secret.slice('whsec_'.length), 'base64'),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const mac = await crypto.sign(
        'HMAC',
        key,
        new TextEncoder().encode(`evt_1.${timestamp}.${body}`),
      );
      return {
        'webhook-id': 'evt_1',
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${Buffer.from(mac).toString('base64')}`,
      };
    };
    const rebuilt = fakeState();
    const { interrupt, state: resumed } = await resumeOpenAIAgentsFromWebhook(
      body,
      await signed(await resumeSigningSecret(apiKey)),
      async (text) => (text === '{"state":true}' ? rebuilt : fakeState()),
      { apiKey },
    );
    expect(interrupt.id).toBe(ANSWERED_INTERRUPT_ID);
    expect(resumed).toBe(rebuilt);
    expect(rebuilt.calls).toEqual([
      ['approve', 'c1', undefined],
      ['reject', 'c2', 'Not Bob.'],
      ['reject', 'c3', undefined],
    ]);
    // Signed under another key's secret: not from the service for this agent.
    const other = fakeState();
    await expect(
      resumeOpenAIAgentsFromWebhook(
        body,
        await signed(await resumeSigningSecret('ilk_someone_else')),
        async () => other,
        { apiKey },
      ),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    expect(other.calls).toEqual([]);
  });

  it('refuses an open interrupt, one of another bridge, and a run with nothing to approve', async () => {
    const state = fakeState();
    const open = await answeredWith(state, 'open', []);
    await expect(applyOpenAIAgentsDecisions(state, open)).rejects.toThrow('still open');
    await expect(
      applyOpenAIAgentsDecisions(state, { ...open, metadata: null, status: 'answered' }),
    ).rejects.toThrow(InterlockError);
    expect(() => openAIAgentsInterrupt({ ...state, getInterruptions: () => [] })).toThrow(
      'no pending tool approvals',
    );
  });
});
