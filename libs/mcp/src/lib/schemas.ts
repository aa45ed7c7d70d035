// The tools' input and output schemas. The descriptions are written for the model that calls the
// tools: they say what each field is for and what a good value looks like. Bounds repeat the
// API's own (SPEC §10), so most mistakes are caught before a call; the API stays the authority.
import { z } from 'zod';

export const DECISIONS = ['approve', 'edit', 'reject', 'respond'] as const;
export const MESSAGE_ROLES = ['agent', 'tool', 'user', 'system'] as const;

/** How long a tool call may wait for a human: under the 60 s MCP clients give a call by default. */
export const MAX_WAIT_SECONDS = 50;
export const DEFAULT_WAIT_SECONDS = 45;

/**
 * Routing at creation (SPEC §8e). The schema advertises the API's bounds (an enum, a pattern, at
 * most 10 labels) but accepts any string and list, so that what breaks them is refused by the API
 * itself — with `POST /api/interrupts`'s own texts, as a tool error — rather than by this
 * server's validator in words of its own.
 */
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const MAX_LABELS = 10;
const LABEL_PATTERN = '^[A-Za-z0-9_.:/+-]{1,50}$';

/**
 * A free-form JSON object. Spelled `additionalProperties: true` in the JSON Schema (zod writes
 * `{}`, which schema linters flag as constraining nothing by accident).
 */
const freeObject = () => z.record(z.string(), z.unknown()).meta({ additionalProperties: true });

const waitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .optional()
  .describe(
    `How many seconds to wait for the human before returning (0–${MAX_WAIT_SECONDS}, default ${DEFAULT_WAIT_SECONDS}). ` +
      'If nobody has decided by then you get status "pending" and can call get_decision later.',
  );

const sessionId = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe(
    'Optional: the sessionId from start_session, so reviewers see this request beside your steps in the Live View.',
  );

const action = z.object({
  name: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'A short identifier for the action, unique within this request, e.g. "deploy", "send_email", "delete_branch".',
    ),
  args: freeObject().describe(
    'The exact arguments you will use if approved, e.g. {"service": "api", "version": "1.4.2"}. The human may edit them.',
  ),
  description: z
    .string()
    .max(10_000)
    .optional()
    .describe('What this action does and what could go wrong, for the reviewer.'),
  allowedDecisions: z
    .array(z.enum(DECISIONS))
    .min(1)
    .optional()
    .describe(
      'Which decisions the human may take (default all four): "approve" (go ahead as proposed), "edit" (go ahead with ' +
        'edited args), "reject" (do not do it), "respond" (do not do it; the human writes back instead).',
    ),
  responseSchema: freeObject()
    .optional()
    .describe(
      'Optional, for a typed answer: a JSON Schema of an object whose properties are strings, numbers, integers, ' +
        'booleans, enums or arrays of those (with title/description, minimum/maximum, minLength/maxLength, ' +
        'default), e.g. {"type":"object","properties":{"region":{"type":"string","enum":["eu","us"]},' +
        '"replicas":{"type":"integer","minimum":1}},"required":["region"]}. The human fills it in as a form; ' +
        'needs "respond" among allowedDecisions; the answer comes back as that decision\'s "response".',
    ),
});

export const requestApprovalInput = {
  title: z
    .string()
    .min(1)
    .max(200)
    .describe('One line a busy person can decide on, e.g. "Deploy api 1.4.2 to production?"'),
  description: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Context for the reviewer: why you want to do this, what you checked, what could go wrong. Markdown is fine.',
    ),
  actions: z
    .array(action)
    .min(1)
    .max(20)
    .describe('The 1–20 actions you want approved; the human decides each one separately.'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(2_592_000)
    .optional()
    .describe(
      'Optional: a deadline for the humans, in seconds from now (at most 30 days, and the organisation may allow ' +
        'less). If nobody decides by then, every undecided action is rejected for you (status "expired"), so a ' +
        'request never waits forever. Unlike waitSeconds, it does not make you wait longer.',
    ),
  priority: z
    .string()
    .meta({ enum: [...PRIORITIES] })
    .optional()
    .describe(
      'Optional: how urgent this is for the reviewers — "low", "normal" (the default), "high" or "urgent". ' +
        'Reviewers filter their inbox by it; say "urgent" only when waiting costs something now.',
    ),
  labels: z
    .array(z.string().meta({ pattern: LABEL_PATTERN, minLength: 1, maxLength: 50 }))
    .meta({ maxItems: MAX_LABELS })
    .optional()
    .describe(
      `Optional: up to ${MAX_LABELS} short tags reviewers filter by, e.g. ["billing", "prod", "team:payments"]: each ` +
        '1 to 50 ASCII letters, digits or _ . : / + - (no spaces); a repeated one counts once.',
    ),
  assignTo: z
    .object({
      memberId: z.string().optional().describe('A member, by id.'),
      email: z
        .string()
        .optional()
        .describe('A member, by email address, e.g. "grace@example.com".'),
      teamId: z.string().optional().describe('A team, by id.'),
      teamName: z.string().optional().describe('A team, by its exact name, e.g. "Payments".'),
    })
    .optional()
    .describe(
      'Optional: who in your organisation should decide it, as it opens — exactly one of memberId, email, teamId ' +
        'or teamName. Someone who is not in the organisation is refused and nothing is opened; without it, the ' +
        "organisation's own routing applies.",
    ),
  waitSeconds,
  sessionId,
};

export const askHumanInput = {
  question: z
    .string()
    .min(1)
    .max(10_000)
    .describe(
      'The question, complete enough to answer without other context, e.g. "Which region should the new database go in?"',
    ),
  context: z
    .string()
    .max(10_000)
    .optional()
    .describe(
      'Anything the human needs to answer well: what you are doing, the options you see, what you would pick and why.',
    ),
  waitSeconds,
  sessionId,
};

export const getDecisionInput = {
  interruptId: z
    .string()
    .min(1)
    .max(100)
    .describe('The interruptId returned by request_approval or ask_human.'),
  waitSeconds,
};

export const startSessionInput = {
  name: z
    .string()
    .min(1)
    .max(200)
    .describe('What this run is, e.g. "Nightly dependency upgrade" or "Refund ticket #4411".'),
  externalId: z.string().min(1).max(200).optional().describe('Optional: your own id for this run.'),
};

export const logStepInput = {
  sessionId: z.string().min(1).max(100).describe('The sessionId returned by start_session.'),
  content: z
    .string()
    .max(32_768)
    .describe(
      'What you did, found or decided in this step, in a sentence or a short paragraph (at most 32 kB).',
    ),
  role: z
    .enum(MESSAGE_ROLES)
    .optional()
    .describe(
      'Whose words these are: "agent" (you, the default), "tool" (a tool\'s output), "user" or "system".',
    ),
};

export const endSessionInput = {
  sessionId: z.string().min(1).max(100).describe('The sessionId returned by start_session.'),
};

// Outputs leave out what is not there rather than send null: a nullable type is the least
// portable spelling across the model providers' schema dialects.
const decision = z.object({
  action: z.string().describe('The action this decision is about.'),
  decision: z.enum(DECISIONS),
  editedArgs: freeObject()
    .optional()
    .describe('With "edit": the arguments to use instead of yours.'),
  editedName: z
    .string()
    .optional()
    .describe('With "edit", when the human chose another action: its name, to perform instead.'),
  message: z.string().optional().describe('What the human wrote (always there with "respond").'),
  response: freeObject()
    .optional()
    .describe(
      'With "respond" on an action that has a responseSchema: the typed answer, valid against that schema.',
    ),
  decidedBy: z.string().describe('Who decided.'),
  decidedAt: z.string(),
});

/** What request_approval, ask_human and get_decision return. */
export const outcomeOutput = {
  status: z
    .enum(['answered', 'pending'])
    .describe(
      '"answered": every action has a decision. "pending": not yet — never treat pending as an approval.',
    ),
  interruptId: z.string(),
  url: z.string().describe('Where a human reviews this request in the Interlock dashboard.'),
  title: z.string(),
  decisions: z.array(decision).describe('The decisions so far, one per decided action.'),
  actionsAwaitingDecision: z.array(z.string()).describe('Actions nobody has decided yet.'),
  answer: z.string().optional().describe("ask_human only: the human's answer, once there is one."),
  resumed: z
    .boolean()
    .optional()
    .describe(
      'True when an identical earlier request was found (within 24 hours) and no new one was opened.',
    ),
  next: z.string().describe('What to do now.'),
};

export const listPendingOutput = {
  interrupts: z.array(
    z.object({
      interruptId: z.string(),
      title: z.string(),
      kind: z
        .enum(['approval', 'question'])
        .describe(
          'question: a question to answer (as ask_human opens); approval: actions to decide.',
        ),
      createdAt: z.string(),
      url: z.string(),
      actionsAwaitingDecision: z.array(z.string()),
    }),
  ),
  complete: z
    .boolean()
    .describe(
      'False when this key has more open requests than were listed (the newest 1,000 are).',
    ),
  note: z.string(),
};

export const sessionOutput = {
  sessionId: z.string(),
  name: z.string(),
  status: z.string(),
  messageCount: z.number(),
  startedAt: z.string(),
  endedAt: z.string().optional().describe('Once the session has ended.'),
};

export const logStepOutput = {
  sessionId: z.string(),
  appended: z.number(),
};

/**
 * Claude Code's `--permission-prompt-tool` input, exactly as Claude Code sends it: the tool it
 * wants to use, that tool's input, and the tool use's id.
 */
export const permissionPromptInput = {
  tool_name: z
    .string()
    .min(1)
    .max(200)
    .describe(
      'The tool the agent wants to use, e.g. "Bash", "Write", "mcp__github__create_pull_request".',
    ),
  input: freeObject().describe('The input the agent would give that tool.'),
  tool_use_id: z
    .string()
    .min(1)
    .max(190)
    .optional()
    .describe('The id of this tool use, when the caller has one.'),
};
