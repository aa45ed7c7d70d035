// MCP tasks (protocol revision 2025-11-25) for the tools that wait for a person. A task is an
// interrupt: its taskId is the interrupt's id and its status is read from the interrupt on every
// tasks/get, so nothing is kept in the server. A task started over stdio can be followed after a
// restart, and one started on /mcp from any instance of the service (which keeps nothing
// between requests).
import type { Interrupt } from '@interlock/sdk';
import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type {
  CallToolResult,
  Request,
  RequestId,
  Result,
  Task,
} from '@modelcontextprotocol/sdk/types.js';
import { InterlockBackend, InterlockBackendError } from './backend';
import { dashboardLink, toOutcome } from './outcome';
import { success } from './tool-result';

/** How many of the key's open requests one `tasks/list` page holds. */
const LIST_PAGE = 100;

/** The reason a withdrawal by `tasks/cancel` records (shown in the inbox). */
export const CANCELLED_BY_CLIENT = 'Cancelled by the MCP client (tasks/cancel).';

/** taskIds of tasks that failed before an interrupt existed: the failure travels in the id. */
const FAILED_PREFIX = 'failed.';

/** What a tool hands the store when it creates a task (`CreateTaskOptions.context`). */
export interface TaskContext {
  /** The interrupt the call opened (or found again). */
  interrupt?: Interrupt;
  /** The tool result of a call that failed before any interrupt existed. */
  failure?: CallToolResult;
}

/**
 * The task store of one server (one API key): tasks are the interrupts the key can read.
 *
 * - open → `working` (statusMessage: how many actions are decided, and the dashboard link);
 *   answered or expired → `completed` (the result is what `get_decision` answers);
 *   withdrawn → `cancelled` (its result says it was withdrawn, and why).
 * - `tasks/cancel` withdraws the interrupt (`POST /api/interrupts/{id}/cancel`).
 * - `tasks/list` lists the key's open requests, newest first.
 * - Tasks are bound to the API key, the authorization context of both transports (stdio has no
 *   MCP session; /mcp keeps none): the key reads them as it reads its interrupts.
 * - `ttl` is null: an interrupt is kept, as its audit trail is.
 *
 * A tools/call without `task` (a client without tasks) does not become a task: the tool waits
 * as it always did (bounded, then `pending`). The SDK routes such a call through the task
 * handler too, so the store tells the handler which kind of call it serves (`isTaskCall`).
 */
export class InterruptTaskStore implements TaskStore {
  /** Calls without `task`, by request id, and their results once the bounded wait ended. */
  private readonly plainCalls = new Map<RequestId, CallToolResult | undefined>();

  constructor(
    private readonly backend: InterlockBackend,
    private readonly options: { dashboardUrl: string; pollIntervalMs: number },
  ) {}

  /** Whether `requestId` asked for a task (`params.task`); known once `createTask` ran for it. */
  isTaskCall(requestId: RequestId): boolean {
    return !this.plainCalls.has(requestId);
  }

  /**
   * The result of a call without `task`, as a task that has already ended: the SDK returns
   * `getTaskResult` of it as the call's answer.
   */
  endPlainCall(requestId: RequestId, result: CallToolResult): Task {
    this.plainCalls.set(requestId, result);
    const now = new Date().toISOString();
    return {
      taskId: plainTaskId(requestId),
      status: 'completed',
      ttl: 0,
      createdAt: now,
      lastUpdatedAt: now,
    };
  }

  async createTask(
    taskParams: { context?: Record<string, unknown> },
    requestId: RequestId,
    request: { method: string; params?: Request['params'] },
  ): Promise<Task> {
    const context = (taskParams.context ?? {}) as TaskContext;
    const params = (request.params ?? {}) as { task?: unknown };
    if (params.task === undefined) {
      this.plainCalls.set(requestId, undefined);
      const now = new Date().toISOString();
      return {
        taskId: plainTaskId(requestId),
        status: 'working',
        ttl: 0,
        createdAt: now,
        lastUpdatedAt: now,
      };
    }
    if (context.interrupt !== undefined) return this.taskOf(context.interrupt);
    return failedTask(context.failure ?? internalFailure());
  }

  async getTask(taskId: string): Promise<Task | null> {
    const plain = this.plainResult(taskId);
    if (plain !== undefined) return plain.task;
    const failed = decodeFailure(taskId);
    if (failed !== undefined) return failedTask(failed, taskId);
    const interrupt = await this.read(taskId);
    return interrupt === null ? null : this.taskOf(interrupt);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const plain = this.plainResult(taskId);
    if (plain !== undefined) {
      this.plainCalls.delete(plain.requestId);
      return plain.result;
    }
    const failed = decodeFailure(taskId);
    if (failed !== undefined) return failed;
    const interrupt = await this.read(taskId);
    if (interrupt === null) throw new InterlockBackendError('Not found.', { status: 404 });
    return success(toOutcome(interrupt, this.options.dashboardUrl));
  }

  async storeTaskResult(): Promise<void> {
    // Nothing stores results here: a task ends when people decide its interrupt.
    throw new Error('Interlock tasks end when a person decides; results are not stored.');
  }

  async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
    if (status !== 'cancelled')
      throw new Error(`Interlock tasks change status only when people decide (asked: ${status}).`);
    await this.backend.cancelInterrupt(taskId, CANCELLED_BY_CLIENT);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const page = await this.backend.listOwnOpenInterrupts({ cursor, limit: LIST_PAGE });
    return {
      tasks: page.interrupts.map((interrupt) => this.taskOf(interrupt)),
      ...(page.nextCursor === null || page.nextCursor === undefined
        ? {}
        : { nextCursor: page.nextCursor }),
    };
  }

  /** An interrupt as a task. */
  taskOf(interrupt: Interrupt): Task {
    const url = dashboardLink(this.options.dashboardUrl, interrupt.id);
    const base = {
      taskId: interrupt.id,
      ttl: null,
      createdAt: interrupt.createdAt,
      lastUpdatedAt: lastUpdate(interrupt),
      pollInterval: this.options.pollIntervalMs,
    };
    switch (interrupt.status) {
      case 'open': {
        const total = interrupt.actionRequests.length;
        const decided = new Set(interrupt.decisions.map((d) => d.actionName)).size;
        return {
          ...base,
          status: 'working',
          statusMessage: `Waiting for a human decision (${decided} of ${total} actions decided): ${url}`,
        };
      }
      case 'withdrawn':
        return {
          ...base,
          status: 'cancelled',
          statusMessage: withdrawnText(interrupt),
        };
      default:
        return {
          ...base,
          status: 'completed',
          statusMessage:
            interrupt.status === 'expired'
              ? `Expired: its deadline decided what nobody had: ${url}`
              : `Decided: ${url}`,
        };
    }
  }

  private plainResult(
    taskId: string,
  ): { requestId: RequestId; task: Task; result: CallToolResult } | undefined {
    for (const [requestId, result] of this.plainCalls) {
      if (plainTaskId(requestId) !== taskId || result === undefined) continue;
      const now = new Date().toISOString();
      return {
        requestId,
        result,
        task: { taskId, status: 'completed', ttl: 0, createdAt: now, lastUpdatedAt: now },
      };
    }
    return undefined;
  }

  /** The interrupt, or null when this key's organisation has none by that id. */
  private async read(taskId: string): Promise<Interrupt | null> {
    try {
      return await this.backend.getInterrupt(taskId);
    } catch (error) {
      if (error instanceof InterlockBackendError && error.status === 404) return null;
      throw error;
    }
  }
}

/** "Withdrawn." or "Withdrawn: <reason>" — a withdrawn request decides nothing. */
export function withdrawnText(interrupt: Pick<Interrupt, 'withdrawnReason'>): string {
  const reason = interrupt.withdrawnReason;
  return reason === null || reason === undefined || reason === ''
    ? 'Withdrawn.'
    : `Withdrawn: ${reason}`;
}

function plainTaskId(requestId: RequestId): string {
  return `call.${String(requestId)}`;
}

function lastUpdate(interrupt: Interrupt): string {
  const times = [
    interrupt.createdAt,
    interrupt.escalatedAt,
    interrupt.answeredAt,
    interrupt.closedAt,
    ...interrupt.decisions.map((d) => d.decidedAt),
  ].filter((t): t is string => typeof t === 'string');
  return times.reduce((latest, t) => (Date.parse(t) > Date.parse(latest) ? t : latest));
}

function internalFailure(): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: 'Internal error in the Interlock MCP server.' }],
  };
}

/**
 * A call refused before an interrupt existed (the API's 400, 401, 402…) as a task that has
 * already failed. Its id carries the tool error, so any server (any instance of the service)
 * answers tasks/get and tasks/result for it without having kept anything.
 */
function failedTask(failure: CallToolResult, taskId = encodeFailure(failure)): Task {
  const now = new Date().toISOString();
  const first = failure.content[0];
  return {
    taskId,
    status: 'failed',
    ttl: null,
    createdAt: now,
    lastUpdatedAt: now,
    statusMessage: first?.type === 'text' ? first.text : 'Failed.',
  };
}

function encodeFailure(failure: CallToolResult): string {
  const texts = failure.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
  return FAILED_PREFIX + Buffer.from(JSON.stringify(texts), 'utf8').toString('base64url');
}

function decodeFailure(taskId: string): CallToolResult | undefined {
  if (!taskId.startsWith(FAILED_PREFIX)) return undefined;
  try {
    const texts = JSON.parse(
      Buffer.from(taskId.slice(FAILED_PREFIX.length), 'base64url').toString('utf8'),
    ) as unknown;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
      return undefined;
    return { isError: true, content: texts.map((text: string) => ({ type: 'text', text })) };
  } catch {
    return undefined;
  }
}
