import { actionDigest, ActionDigestMismatchError } from './action-digest';
import { Interlock } from './client';
import { InterlockError } from './errors';
import { ApprovalRejectedError, requireApproval } from './gate';
import { jsonResponse, mockFetch } from './testing/mock-fetch';

const decision = (decision: string, extra: Record<string, unknown> = {}) => ({
  id: 'd1',
  actionName: 'op',
  decision,
  editedArgs: null,
  editedName: null,
  message: null,
  decidedBy: { type: 'member', id: 'm1', name: 'Ada' },
  decidedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const interrupt = (status: string, decisions: unknown[]) => ({
  id: 'i1',
  title: 'Approve op?',
  status,
  actionRequests: [
    { name: 'op', args: {}, description: null, allowedDecisions: ['approve', 'edit', 'reject'] },
  ],
  decisions,
});

function gated(answer: unknown, fn: (...args: number[]) => number = (a, b) => a + b) {
  const { fetch, calls } = mockFetch(
    jsonResponse(201, interrupt('open', [])),
    jsonResponse(200, answer),
  );
  const client = new Interlock({ apiKey: 'ilk_test', baseURL: 'http://interlock.test', fetch });
  return { call: requireApproval(fn, { client, name: 'op', params: ['a', 'b'] }), calls };
}

describe('requireApproval', () => {
  it('opens one action with the call as its args, then runs it once approved', async () => {
    const { call, calls } = gated(interrupt('answered', [decision('approve')]));
    await expect(call(2, 3)).resolves.toBe(5);
    expect(calls[0].body).toEqual({
      title: 'Approve op?',
      actionRequests: [
        { name: 'op', args: { a: 2, b: 3 }, allowedDecisions: ['approve', 'edit', 'reject'] },
      ],
    });
  });

  it("runs an edit with the edited arguments, in the parameters' order", async () => {
    const { call } = gated(
      interrupt('answered', [decision('edit', { editedArgs: { b: 10, a: 1 } })]),
    );
    await expect(call(2, 3)).resolves.toBe(11);
  });

  it('refuses to run when the interrupt was withdrawn or expired into a rejection', async () => {
    const withdrawn = gated(interrupt('withdrawn', []));
    await expect(withdrawn.call(1, 1)).rejects.toThrow(
      new ApprovalRejectedError(
        'op was not approved: the request was withdrawn.',
        {} as never,
        undefined,
      ),
    );
    const system = decision('reject', {
      decidedBy: { type: 'system', reason: 'timeout', name: 'system' },
    });
    const expired = gated(interrupt('expired', [system]));
    await expect(expired.call(1, 1)).rejects.toThrow('op was rejected by system.');
  });

  it('refuses to run on an answer about other arguments than the call (digest), and runs on its own', async () => {
    let ran = 0;
    const sum = (a: number, b: number) => (ran++, a + b);
    const asked = await actionDigest('i1', 'op', { a: 2, b: 3 });
    const other = await actionDigest('i1', 'op', { a: 2, b: 300 });
    const about = (digest: string) => ({
      ...interrupt('answered', [decision('approve', { actionDigest: digest })]),
      actionRequests: [{ ...interrupt('open', []).actionRequests[0], actionDigest: digest }],
    });
    const tampered = gated(about(other), sum);
    await expect(tampered.call(2, 3)).rejects.toBeInstanceOf(ActionDigestMismatchError);
    expect(ran).toBe(0);
    await expect(gated(about(asked), sum).call(2, 3)).resolves.toBe(5);
    expect(ran).toBe(1);
  });

  it('cannot allow respond or nothing', () => {
    expect(() => requireApproval(() => 1, { allowedDecisions: ['respond' as 'approve'] })).toThrow(
      InterlockError,
    );
    expect(() => requireApproval(() => 1, { allowedDecisions: [] })).toThrow(
      'requireApproval needs at least one allowed decision.',
    );
  });
});
