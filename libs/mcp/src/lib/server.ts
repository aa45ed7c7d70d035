import {
  ActionDigestMismatchError,
  type AskedAction,
  type Interrupt,
  type InterruptCreateParams,
  verifyDecisions,
} from '@interlock/sdk';
import type { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CreateTaskRequestHandlerExtra } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { InterlockBackend, InterlockBackendError } from './backend';
import { idempotencyKeyFor } from './idempotency';
import { ASK_HUMAN_ACTION, dashboardLink, isQuestion, OpeningTool, toOutcome } from './outcome';
import {
  askHumanInput,
  DEFAULT_WAIT_SECONDS,
  endSessionInput,
  getDecisionInput,
  listPendingOutput,
  logStepInput,
  logStepOutput,
  outcomeOutput,
  permissionPromptInput,
  requestApprovalInput,
  sessionOutput,
  startSessionInput,
} from './schemas';
import { permissionAnswer } from './permission-prompt';
import { InterruptTaskStore, type TaskContext } from './tasks';
import { failure, success } from './tool-result';
import { MCP_SERVER_VERSION } from './version';
import { waitForDecision } from './wait';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type RequestApprovalArgs = z.infer<z.ZodObject<typeof requestApprovalInput>>;
type AskHumanArgs = z.infer<z.ZodObject<typeof askHumanInput>>;

export interface InterlockMcpServerOptions {
  /** How the tools reach Interlock, as one API key of one organisation. */
  backend: InterlockBackend;
  /** Where people open the dashboard: links are `<dashboardUrl>/interrupts/<id>`. */
  dashboardUrl: string;
  /** Time between reads of an interrupt while waiting. Default 2 000 ms. */
  pollIntervalMs?: number;
  /** The `pollInterval` tasks suggest to their clients (MCP tasks). Default 5 000 ms. */
  taskPollIntervalMs?: number;
  /**
   * How long `permission_prompt` waits for a person before it denies the call, saying nobody
   * decided yet (default 45 s). Claude Code waits for an MCP tool as long as `MCP_TOOL_TIMEOUT`
   * says; keep this under it.
   */
  permissionWaitSeconds?: number;
  /** Aborted when the host shuts down: waits end at once, as pending. */
  stopWaiting?: AbortSignal;
  /** Told about unexpected errors (bugs), which the model sees only as an internal error. */
  onError?: (error: unknown) => void;
  /**
   * Asked before a tool waits: a release to call when the wait ends, or undefined when the key
   * may not wait now (too many waits open): the tool then answers at once, pending.
   */
  acquireWait?: () => (() => void) | undefined;
}

/** An interrupt a tool opened (or found again on a retry), and the actions it sent. */
interface Opened {
  interrupt: Interrupt;
  resumed: boolean;
  sent: readonly AskedAction[];
  /** The service's answer to the create carried digests: an answer without them is refused (SPEC §8e). */
  digested: boolean;
}

const INSTRUCTIONS =
  "Interlock connects you to your organisation's humans. Before an action that is risky, irreversible, costly or " +
  'outside what you were asked to do, call request_approval and act only on what comes back "answered"; when you ' +
  'need information only a person has, call ask_human. Both wait up to 50 s. If the result is "pending", nobody has ' +
  'decided yet: never treat that as an approval — call get_decision later, or share the link. Use start_session, ' +
  'log_step and end_session to let reviewers follow your work live.';

/** How many of this key's open interrupts list_pending returns at most (the API pages at 200). */
const LIST_PAGE = 200;
const LIST_MAX_PAGES = 5;

/**
 * The Interlock MCP server: the same tools over stdio (`interlock-mcp`) and over Streamable HTTP
 * (the API's `/mcp`), for one API key of one organisation.
 */
export function createInterlockMcpServer(options: InterlockMcpServerOptions): McpServer {
  const { backend, dashboardUrl } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const taskStore = new InterruptTaskStore(backend, {
    dashboardUrl,
    pollIntervalMs: options.taskPollIntervalMs ?? 5_000,
  });
  const server = new McpServer(
    { name: 'interlock', title: 'Interlock', version: MCP_SERVER_VERSION },
    {
      instructions: INSTRUCTIONS,
      capabilities: {
        tools: {},
        // MCP tasks (2025-11-25): request_approval and ask_human may run as tasks.
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore,
    },
  );

  /**
   * The tool error for an answer that is not about the actions this call sent (their digests,
   * SPEC §8e), or undefined when it is (or the interrupt is still open): the agent must not act on
   * a decision about something else.
   */
  const notAbout = async (
    interrupt: Interrupt,
    sent: readonly AskedAction[],
    digested: boolean,
  ): Promise<CallToolResult | undefined> => {
    if (interrupt.status === 'open') return undefined;
    try {
      await verifyDecisions(interrupt, sent, { required: digested });
      return undefined;
    } catch (error) {
      if (!(error instanceof ActionDigestMismatchError)) throw error;
      return {
        isError: true,
        content: [
          { type: 'text' as const, text: error.message },
          {
            type: 'text' as const,
            text: 'Do not act on this answer: it is not about what you asked. Ask again with request_approval.',
          },
        ],
      };
    }
  };

  /** Runs a tool body; anything thrown becomes a tool error the model can read. */
  const guarded = async (
    extra: Extra,
    body: (context: { interruptId?: string }) => Promise<CallToolResult>,
  ) => {
    const context: { interruptId?: string } = {};
    try {
      return await body(context);
    } catch (error) {
      if (extra.signal.aborted)
        return { isError: true, content: [{ type: 'text' as const, text: 'Cancelled.' }] };
      if (!(error instanceof InterlockBackendError)) options.onError?.(error);
      return failure(error, context);
    }
  };

  /** Waits for a decision with progress notifications (when the client asked for them), then shapes the result. */
  const waitAndReport = async (
    interrupt: Interrupt,
    waitSeconds: number | undefined,
    extra: Extra,
    shape: { asked?: boolean; resumed?: boolean },
    opened?: Pick<Opened, 'sent' | 'digested'>,
  ): Promise<CallToolResult> => {
    const seconds = waitSeconds ?? DEFAULT_WAIT_SECONDS;
    const progressToken = extra._meta?.progressToken;
    const url = dashboardLink(dashboardUrl, interrupt.id);
    let lastProgress = -1;
    const release =
      seconds > 0 && interrupt.status === 'open' && options.acquireWait
        ? options.acquireWait()
        : () => undefined;
    const notWaited = release === undefined;
    const { interrupt: latest, stopped } = await waitForDecision(backend, interrupt, {
      waitMs: notWaited ? 0 : seconds * 1000,
      pollIntervalMs,
      signal: extra.signal,
      stop: options.stopWaiting,
      onWaiting:
        progressToken === undefined
          ? undefined
          : async (elapsedMs) => {
              // Progress must increase with every notification.
              const progress = Math.max(Math.round(elapsedMs / 100) / 10, lastProgress + 0.1);
              lastProgress = progress;
              await extra.sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress,
                  total: seconds,
                  message: `Waiting for a human decision (${Math.floor(elapsedMs / 1000)} s of ${seconds} s): ${url}`,
                },
              });
            },
    }).finally(() => release?.());
    const refused =
      opened === undefined ? undefined : await notAbout(latest, opened.sent, opened.digested);
    if (refused !== undefined) return refused;
    return success(
      toOutcome(latest, dashboardUrl, {
        ...shape,
        stopped,
        notWaited: notWaited && latest.status === 'open',
      }),
    );
  };

  const open = async (
    tool: OpeningTool,
    body: Omit<InterruptCreateParams, 'metadata'>,
    extra: Extra,
    context: { interruptId?: string },
  ): Promise<Opened> => {
    const { apiKeyId } = await backend.identity({ signal: extra.signal });
    const created = await backend.createInterrupt(body, {
      idempotencyKey: idempotencyKeyFor(tool, apiKeyId, body),
      signal: extra.signal,
    });
    context.interruptId = created.value.id;
    const sent = body.actionRequests;
    const digested = created.value.actionRequests.some((a) => a.actionDigest !== undefined);
    if (!created.replayed) return { interrupt: created.value, resumed: false, sent, digested };
    // A replay repeats the first creation's answer (then still open): read what it is now.
    return {
      interrupt: await backend.getInterrupt(created.value.id, { signal: extra.signal }),
      resumed: true,
      sent,
      digested,
    };
  };

  /**
   * A tool that waits for people, as MCP tasks allow (`taskSupport: 'optional'`). Asked with
   * `task`, the call opens the interrupt and answers at once with the task (the interrupt's id);
   * the client follows it with tasks/get and reads the outcome with tasks/result, for as long as
   * people take. Asked without `task`, it waits as before: bounded, then `pending`.
   */
  const waitingTool = <Args>(
    openFor: (args: Args, extra: Extra, context: { interruptId?: string }) => Promise<Opened>,
    waitSecondsOf: (args: Args) => number | undefined,
    asked: boolean,
  ) => ({
    createTask: async (args: Args, extra: CreateTaskRequestHandlerExtra) => {
      const context: { interruptId?: string } = {};
      let opened: Opened | undefined;
      let failed: CallToolResult | undefined;
      try {
        opened = await openFor(args, extra, context);
      } catch (error) {
        if (!(error instanceof InterlockBackendError)) options.onError?.(error);
        failed = extra.signal.aborted
          ? { isError: true, content: [{ type: 'text' as const, text: 'Cancelled.' }] }
          : failure(error, context);
      }
      const taskContext: TaskContext = { interrupt: opened?.interrupt, failure: failed };
      const task = await extra.taskStore.createTask({
        context: taskContext as Record<string, unknown>,
      });
      if (taskStore.isTaskCall(extra.requestId)) return { task };
      const result =
        opened === undefined
          ? (failed as CallToolResult)
          : await guarded(extra, async (ctx) => {
              ctx.interruptId = opened.interrupt.id;
              return waitAndReport(
                opened.interrupt,
                waitSecondsOf(args),
                extra,
                { asked, resumed: opened.resumed },
                opened,
              );
            });
      return { task: taskStore.endPlainCall(extra.requestId, result) };
    },
    // The SDK answers tasks/get and tasks/result from the task store; these serve the same.
    getTask: async (_args: Args, extra: { taskId: string }) => {
      const task = await taskStore.getTask(extra.taskId);
      if (task === null) throw new InterlockBackendError('Not found.', { status: 404 });
      return task;
    },
    getTaskResult: async (_args: Args, extra: { taskId: string }) =>
      (await taskStore.getTaskResult(extra.taskId)) as CallToolResult,
  });

  server.experimental.tasks.registerToolTask(
    'request_approval',
    {
      title: 'Ask a human to approve actions',
      description:
        'Ask a human in your organisation to approve one or more actions before you carry them out, and wait for the ' +
        'decision (up to waitSeconds, default 45, at most 50). Use it before anything risky, irreversible, costly, or ' +
        'outside what you were asked to do. Returns status "answered" with one decision per action — "approve" (go ' +
        'ahead), "edit" (go ahead with editedArgs), "reject" (do not), "respond" (do not; read message) — or status ' +
        '"pending" with an interruptId and a dashboard link when nobody decided in time. An action with a responseSchema ' +
        'asks for a typed answer: the human fills in a form and the "respond" decision carries it as "response". Pending is NOT approval: do not ' +
        'act; call get_decision later. Calling again with exactly the same arguments within 24 hours returns the same ' +
        'request (and its decisions, if made) instead of opening a duplicate; to ask again after a decision, change the ' +
        'title or description.',
      inputSchema: requestApprovalInput,
      outputSchema: outcomeOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
      execution: { taskSupport: 'optional' },
    },
    waitingTool(
      (args: RequestApprovalArgs, extra, context) =>
        open(
          'request_approval',
          {
            title: args.title,
            description: args.description,
            sessionId: args.sessionId,
            ...(args.timeoutSeconds === undefined ? {} : { timeoutSeconds: args.timeoutSeconds }),
            ...routingOf(args),
            actionRequests: args.actions.map((a) => ({
              name: a.name,
              args: a.args,
              description: a.description,
              allowedDecisions: a.allowedDecisions,
              ...(a.responseSchema === undefined ? {} : { responseSchema: a.responseSchema }),
            })),
          },
          extra,
          context,
        ),
      (args) => args.waitSeconds,
      false,
    ),
  );

  server.experimental.tasks.registerToolTask(
    'ask_human',
    {
      title: 'Ask a human a question',
      description:
        'Ask a human in your organisation a question only a person can answer (a preference, a missing fact, a judgement ' +
        'call) and wait for the answer (up to waitSeconds, default 45, at most 50). Returns status "answered" with the ' +
        'text in "answer", or status "pending" with an interruptId and a dashboard link; then call get_decision later. ' +
        'The same question with the same context within 24 hours returns the earlier one instead of asking twice.',
      inputSchema: askHumanInput,
      outputSchema: outcomeOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
      execution: { taskSupport: 'optional' },
    },
    waitingTool(
      async (args: AskHumanArgs, extra, context) => {
        const title = truncate(args.question, 200);
        const description = truncate(
          [title === args.question ? undefined : args.question, args.context]
            .filter((part): part is string => part !== undefined && part !== '')
            .join('\n\n'),
          10_000,
        );
        return open(
          'ask_human',
          {
            title,
            description: description === '' ? undefined : description,
            sessionId: args.sessionId,
            actionRequests: [
              {
                name: ASK_HUMAN_ACTION,
                args: { question: args.question },
                description: 'Write your answer; the agent reads it.',
                allowedDecisions: ['respond'],
              },
            ],
          },
          extra,
          context,
        );
      },
      (args) => args.waitSeconds,
      true,
    ),
  );

  server.registerTool(
    'permission_prompt',
    {
      title: 'Ask a human to allow a tool call (Claude Code permission prompt)',
      description:
        "For Claude Code's --permission-prompt-tool (and any agent host with the same contract): asks a human in your " +
        'organisation whether the agent may use tool_name with this input, waits for the decision, and answers with ' +
        'text JSON: {"behavior":"allow","updatedInput":{…}} (the input as approved, or as the human edited it) or ' +
        '{"behavior":"deny","message":"…"} (rejected, with the human\'s message, or nobody decided in time). Not for the ' +
        'model to call directly: use request_approval.',
      inputSchema: permissionPromptInput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    (args, extra) =>
      guarded(extra, async (context) => {
        const { interrupt, digested } = await open(
          'permission_prompt',
          {
            title: truncate(`Allow ${args.tool_name}?`, 200),
            description:
              'An agent asks to use this tool with the input below. Approve, edit the input, or reject with a message the agent reads.',
            // Each tool use is its own question: the same input asked again later is asked again.
            externalId: args.tool_use_id,
            actionRequests: [
              {
                name: args.tool_name,
                args: args.input,
                allowedDecisions: ['approve', 'edit', 'reject'],
              },
            ],
          },
          extra,
          context,
        );
        const seconds = options.permissionWaitSeconds ?? DEFAULT_WAIT_SECONDS;
        const release =
          interrupt.status === 'open' && options.acquireWait
            ? options.acquireWait()
            : () => undefined;
        const { interrupt: latest } = await waitForDecision(backend, interrupt, {
          waitMs: release === undefined ? 0 : seconds * 1000,
          pollIntervalMs,
          signal: extra.signal,
          stop: options.stopWaiting,
        }).finally(() => release?.());
        // A decision about another call than this one (its digest) is no permission: deny.
        const refused = await notAbout(
          latest,
          [{ name: args.tool_name, args: args.input }],
          digested,
        );
        if (refused !== undefined) {
          const text = refused.content[0]?.type === 'text' ? refused.content[0].text : '';
          return {
            content: [
              { type: 'text' as const, text: JSON.stringify({ behavior: 'deny', message: text }) },
            ],
          };
        }
        const answer = permissionAnswer(
          latest,
          args.tool_name,
          args.input,
          dashboardLink(dashboardUrl, latest.id),
        );
        return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] };
      }),
  );

  server.registerTool(
    'get_decision',
    {
      title: 'Check on a request',
      description:
        'Pick up a request_approval or ask_human that came back "pending": waits up to waitSeconds (default 45, at most ' +
        '50; 0 checks once) and returns it "answered" with its decisions (and "answer" for a question), or still ' +
        '"pending". Pending is never an approval.',
      inputSchema: getDecisionInput,
      outputSchema: outcomeOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args, extra) =>
      guarded(extra, async (context) => {
        const interrupt = await backend.getInterrupt(args.interruptId, { signal: extra.signal });
        context.interruptId = interrupt.id;
        return waitAndReport(interrupt, args.waitSeconds, extra, {});
      }),
  );

  server.registerTool(
    'list_pending',
    {
      title: 'List requests awaiting a human',
      description:
        'List the requests this API key opened (with request_approval, ask_human, or the Interlock API) that are ' +
        'still waiting for a human, newest first, with their interruptIds and dashboard links. Use it to pick up ' +
        'pending requests after a restart; then call get_decision. Requests opened by other keys are not listed.',
      inputSchema: {},
      outputSchema: listPendingOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (_args, extra) =>
      guarded(extra, async () => {
        const mine: Record<string, unknown>[] = [];
        let cursor: string | undefined;
        let complete = true;
        for (let page = 0; ; page++) {
          if (page === LIST_MAX_PAGES) {
            complete = false;
            break;
          }
          const listed = await backend.listOwnOpenInterrupts(
            { cursor, limit: LIST_PAGE },
            { signal: extra.signal },
          );
          for (const interrupt of listed.interrupts) {
            const decided = new Set(interrupt.decisions.map((d) => d.actionName));
            mine.push({
              interruptId: interrupt.id,
              title: interrupt.title,
              kind: isQuestion(interrupt) ? 'question' : 'approval',
              createdAt: interrupt.createdAt,
              url: dashboardLink(dashboardUrl, interrupt.id),
              actionsAwaitingDecision: interrupt.actionRequests
                .map((a) => a.name)
                .filter((n) => !decided.has(n)),
            });
          }
          if (listed.nextCursor === null || listed.nextCursor === undefined) break;
          cursor = listed.nextCursor;
        }
        const listedHow = complete
          ? 'All of the'
          : `The ${LIST_PAGE * LIST_MAX_PAGES} newest of the`;
        return success({
          interrupts: mine,
          complete,
          note:
            `${listedHow} open requests this API key opened. ` +
            (mine.length === 0
              ? 'None is waiting.'
              : 'Call get_decision with an interruptId to wait for one.'),
        });
      }),
  );

  server.registerTool(
    'start_session',
    {
      title: 'Start a Live View session',
      description:
        "Start a session so the organisation's humans can follow your work live in Interlock's Live View. Returns a " +
        'sessionId: pass it to log_step for each step, to request_approval / ask_human so reviewers see the context, and ' +
        'to end_session when you are done.',
      inputSchema: startSessionInput,
      outputSchema: sessionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (args, extra) =>
      guarded(extra, async () => {
        const session = await backend.startSession(
          { name: args.name, externalId: args.externalId },
          { signal: extra.signal },
        );
        return success(sessionResult(session));
      }),
  );

  server.registerTool(
    'log_step',
    {
      title: 'Log a step to the Live View',
      description:
        'Append one step of your work (what you did, found or decided) to a session started with start_session; humans ' +
        'watching the Live View see it within a second. Keep each step short and factual.',
      inputSchema: logStepInput,
      outputSchema: logStepOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (args, extra) =>
      guarded(extra, async () => {
        const { appended } = await backend.appendMessages(
          args.sessionId,
          [{ role: args.role ?? 'agent', content: args.content }],
          { signal: extra.signal },
        );
        return success({ sessionId: args.sessionId, appended });
      }),
  );

  server.registerTool(
    'end_session',
    {
      title: 'End a Live View session',
      description:
        'End a session started with start_session, when your work is done. No steps can be logged to it afterwards.',
      inputSchema: endSessionInput,
      outputSchema: sessionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    (args, extra) =>
      guarded(extra, async () => {
        const session = await backend.endSession(args.sessionId, { signal: extra.signal });
        return success(sessionResult(session));
      }),
  );

  return server;
}

/**
 * At most `max` characters, counted as the API counts them (code points), ending in "…" when cut;
 * never splits a surrogate pair, which the API would refuse.
 */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * request_approval's routing at creation (SPEC §8e), passed as given: the API checks priority,
 * labels and the assignee against its rules and the organisation, and refuses with its own texts.
 */
function routingOf(
  args: Pick<RequestApprovalArgs, 'priority' | 'labels' | 'assignTo'>,
): Pick<InterruptCreateParams, 'priority' | 'labels' | 'assignTo'> {
  return {
    ...(args.priority === undefined
      ? {}
      : { priority: args.priority as InterruptCreateParams['priority'] }),
    ...(args.labels === undefined ? {} : { labels: args.labels }),
    ...(args.assignTo === undefined ? {} : { assignTo: args.assignTo }),
  };
}

function sessionResult(session: {
  id: string;
  name: string;
  status: string;
  messageCount: number;
  startedAt: string;
  endedAt?: string | null;
}): Record<string, unknown> {
  return {
    sessionId: session.id,
    name: session.name,
    status: session.status,
    messageCount: session.messageCount,
    startedAt: session.startedAt,
    ...(session.endedAt === null || session.endedAt === undefined
      ? {}
      : { endedAt: session.endedAt }),
  };
}
