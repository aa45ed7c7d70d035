import type { Interrupt } from '@interlock/sdk';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InterlockBackend, InterlockBackendError } from './backend';
import { CANCELLED_BY_CLIENT, InterruptTaskStore } from './tasks';

const at = (minute: number) => `2026-11-26T10:${String(minute).padStart(2, '0')}:00.000Z`;

function interrupt(overrides: Partial<Interrupt>): Interrupt {
  return {
    id: 'int-1',
    title: 'Deploy?',
    status: 'open',
    createdAt: at(0),
    answeredAt: null,
    escalatedAt: null,
    closedAt: null,
    withdrawnReason: null,
    actionRequests: [
      { name: 'deploy', args: {}, allowedDecisions: ['approve', 'reject'] },
      { name: 'notify', args: {}, allowedDecisions: ['approve'] },
    ],
    decisions: [],
    ...overrides,
  } as unknown as Interrupt;
}

function storeOver(backend: Partial<InterlockBackend>) {
  return new InterruptTaskStore(backend as InterlockBackend, {
    dashboardUrl: 'https://interlock.test/',
    pollIntervalMs: 5_000,
  });
}

const taskCall = { method: 'tools/call', params: { name: 'request_approval', task: {} } };
const plainCall = { method: 'tools/call', params: { name: 'request_approval' } };

describe('InterruptTaskStore', () => {
  it('an open interrupt is a working task named by its id, saying how many actions are decided', async () => {
    const open = interrupt({
      decisions: [{ actionName: 'deploy', decidedAt: at(5) }] as Interrupt['decisions'],
    });
    const store = storeOver({ getInterrupt: async () => open });
    expect(await store.getTask('int-1')).toEqual({
      taskId: 'int-1',
      status: 'working',
      ttl: null,
      createdAt: at(0),
      lastUpdatedAt: at(5),
      pollInterval: 5_000,
      statusMessage:
        'Waiting for a human decision (1 of 2 actions decided): https://interlock.test/interrupts/int-1',
    });
  });

  it('answered and expired are completed, withdrawn is cancelled with its reason', () => {
    const store = storeOver({});
    expect(store.taskOf(interrupt({ status: 'answered', answeredAt: at(7) }))).toMatchObject({
      status: 'completed',
      lastUpdatedAt: at(7),
      statusMessage: 'Decided: https://interlock.test/interrupts/int-1',
    });
    expect(store.taskOf(interrupt({ status: 'expired', closedAt: at(9) }))).toMatchObject({
      status: 'completed',
      statusMessage:
        'Expired: its deadline decided what nobody had: https://interlock.test/interrupts/int-1',
    });
    expect(
      store.taskOf(interrupt({ status: 'withdrawn', withdrawnReason: 'Plan changed' })),
    ).toMatchObject({ status: 'cancelled', statusMessage: 'Withdrawn: Plan changed' });
    expect(store.taskOf(interrupt({ status: 'withdrawn' }))).toMatchObject({
      statusMessage: 'Withdrawn.',
    });
  });

  it('a task call gets the task of the interrupt it opened; a refused one a failed task any store can read', async () => {
    const store = storeOver({});
    expect(
      await store.createTask({ context: { interrupt: interrupt({}) } }, 1, taskCall),
    ).toMatchObject({ taskId: 'int-1', status: 'working' });
    expect(store.isTaskCall(1)).toBe(true);

    const refusal: CallToolResult = {
      isError: true,
      content: [
        { type: 'text', text: 'title must not be blank' },
        { type: 'text', text: 'Fix the argument the message names and call the tool again.' },
      ],
    };
    const failed = await store.createTask({ context: { failure: refusal } }, 2, taskCall);
    expect(failed).toMatchObject({ status: 'failed', statusMessage: 'title must not be blank' });
    // Another store (another request, another instance) reads it back from the id alone.
    const elsewhere = storeOver({
      getInterrupt: async () => {
        throw new Error('no interrupt is read for a failed task');
      },
    });
    expect(await elsewhere.getTask(failed.taskId)).toMatchObject({
      taskId: failed.taskId,
      status: 'failed',
      statusMessage: 'title must not be blank',
    });
    expect(await elsewhere.getTaskResult(failed.taskId)).toEqual(refusal);
  });

  it('a call without task is marked plain; its result is served once, then forgotten', async () => {
    const store = storeOver({
      getInterrupt: async () => {
        throw new InterlockBackendError('Not found.', { status: 404 });
      },
    });
    const provisional = await store.createTask(
      { context: { interrupt: interrupt({}) } },
      'r-7',
      plainCall,
    );
    expect(store.isTaskCall('r-7')).toBe(false);
    expect(provisional.taskId).not.toBe('int-1');
    const result: CallToolResult = { content: [{ type: 'text', text: 'pending' }] };
    const ended = store.endPlainCall('r-7', result);
    expect(ended.status).toBe('completed');
    expect(await store.getTask(ended.taskId)).toMatchObject({ status: 'completed' });
    expect(await store.getTaskResult(ended.taskId)).toBe(result);
    expect(store.isTaskCall('r-7')).toBe(true);
    expect(await store.getTask(ended.taskId)).toBeNull();
  });

  it('an id the organisation does not have is no task; other errors are not hidden', async () => {
    const missing = storeOver({
      getInterrupt: async () => {
        throw new InterlockBackendError('Not found.', { status: 404 });
      },
    });
    expect(await missing.getTask('nope')).toBeNull();
    const revoked = storeOver({
      getInterrupt: async () => {
        throw new InterlockBackendError('Invalid API key.', { status: 401 });
      },
    });
    await expect(revoked.getTask('int-1')).rejects.toThrow('Invalid API key.');
  });

  it('cancelling withdraws the interrupt; no other status can be set, and results are never stored', async () => {
    const cancelInterrupt = jest.fn(async () => interrupt({ status: 'withdrawn' }));
    const store = storeOver({ cancelInterrupt });
    await store.updateTaskStatus('int-1', 'cancelled');
    expect(cancelInterrupt).toHaveBeenCalledWith('int-1', CANCELLED_BY_CLIENT);
    await expect(store.updateTaskStatus('int-1', 'completed')).rejects.toThrow(
      'Interlock tasks change status only when people decide',
    );
    await expect(store.storeTaskResult()).rejects.toThrow('results are not stored');
  });

  it("lists the key's open interrupts as tasks, passing the cursor on", async () => {
    const listOwnOpenInterrupts = jest.fn(async () => ({
      interrupts: [interrupt({ id: 'int-2' })],
      nextCursor: 'c2',
    }));
    const store = storeOver({ listOwnOpenInterrupts });
    const listed = await store.listTasks('c1');
    expect(listOwnOpenInterrupts).toHaveBeenCalledWith({ cursor: 'c1', limit: 100 });
    expect(listed.tasks.map((t) => [t.taskId, t.status])).toEqual([['int-2', 'working']]);
    expect(listed.nextCursor).toBe('c2');
  });
});
