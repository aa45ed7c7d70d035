/**
 * Cedar policies in argus's rules (SPEC §8d), through the official engine
 * (`@cedar-policy/cedar-wasm`, its Node build): the schema every policy is validated against
 * (strict), the exact texts of a refused policy, and the evaluation of one action request.
 *
 * The request: principal `Key::"<key id>"`, action `Action::"run"`, resource
 * `ActionRequest::"<action name>"` with `name`, `title`, `labels`, `risk?`, `session?`, and the
 * arguments as tags by type — `numbers` (integers), `strings`, `flags` (booleans) — keyed by their
 * dotted path (`amount`, `customer.tier`); arrays and fractional numbers are not offered. Cedar
 * denies by default and a `forbid` wins: allow approves, a deny some `forbid` determined rejects
 * (its `@message` annotation is the agent's message), a deny nothing determined leaves the action
 * to the rules after it. An evaluation error fails closed (the action goes to a person).
 */
import type * as CedarWasm from '@cedar-policy/cedar-wasm/nodejs';
import { onFirstUse } from '../loading/on-first-use.util';

/**
 * The Node build (CommonJS), loaded by the first policy parsed or evaluated: its WebAssembly is
 * compiled at require time, about 10 MB that a process with no Cedar rule never holds (issue 28).
 */
const cedar = onFirstUse<typeof CedarWasm>('@cedar-policy/cedar-wasm/nodejs');

/** What policies see (SPEC §8d). */
export const CEDAR_SCHEMA = `entity Key;
entity Session;
entity Numbers tags Long;
entity Strings tags String;
entity Flags tags Bool;
entity ActionRequest = {
  name: String,
  title: String,
  numbers: Numbers,
  strings: Strings,
  flags: Flags,
  labels: Set<String>,
  risk?: String,
  session?: Session,
};
action run appliesTo { principal: Key, resource: ActionRequest };`;

export const POLICY_MAX_LENGTH = 20_000;
const SCHEMA_NAME = 'interlock-argus';

let schemaReady = false;
function prepareSchema(): void {
  if (schemaReady) return;
  const answer = cedar().preparseSchema(SCHEMA_NAME, CEDAR_SCHEMA);
  if (answer.type !== 'success')
    throw new Error(`the Cedar schema does not parse: ${answer.errors[0]?.message}`);
  schemaReady = true;
}

/** A refusal of a policy text: `path: line L, column C: what Cedar says`. */
export class PolicyValidationError extends Error {}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function describe(
  path: string,
  text: string,
  error: CedarWasm.DetailedError,
  base = 0,
): PolicyValidationError {
  const at = error.sourceLocations?.[0];
  const where = at === undefined ? '' : `${position(text, base + at.start)}: `;
  const label = at?.label ? ` (${at.label})` : '';
  const help = error.help ? ` — ${error.help}` : '';
  return new PolicyValidationError(`${path}: ${where}${error.message}${label}${help}`);
}

export interface CompiledPolicy {
  /** The policies by id (`@id` annotation, else `policy<N>` in order), and their messages. */
  ids: string[];
  messages: Map<string, string>;
  setId: string;
}

/**
 * Parses and validates a policy set against the schema (strict mode); the first problem is
 * thrown with its line and column in `text`.
 */
export function checkPolicy(text: string, path = 'outcome.policy'): Record<string, string> {
  if (text.length > POLICY_MAX_LENGTH)
    throw new PolicyValidationError(`${path}: must be at most ${POLICY_MAX_LENGTH} characters`);
  prepareSchema();
  const parts = cedar().policySetTextToParts(text);
  if (parts.type !== 'success') throw describe(path, text, parts.errors[0]);
  if (parts.policy_templates.length > 0)
    throw new PolicyValidationError(`${path}: templates (?principal, ?resource) are not supported`);
  if (parts.policies.length === 0)
    throw new PolicyValidationError(`${path}: must hold at least one permit or forbid policy`);
  const record: Record<string, string> = {};
  const offsets = new Map<string, number>();
  let from = 0;
  parts.policies.forEach((policy, i) => {
    const json = cedar().policyToJson(policy);
    const id = json.type === 'success' ? (json.json.annotations?.id ?? `policy${i}`) : `policy${i}`;
    if (record[id] !== undefined)
      throw new PolicyValidationError(`${path}: two policies have the id ${id}`);
    record[id] = policy;
    const at = text.indexOf(policy, from);
    offsets.set(id, at < 0 ? 0 : at);
    if (at >= 0) from = at + policy.length;
  });
  const answer = cedar().validate({
    schema: CEDAR_SCHEMA,
    policies: { staticPolicies: record },
    validationSettings: { mode: 'strict' },
  });
  if (answer.type !== 'success') throw describe(path, text, answer.errors[0]);
  const [first] = answer.validationErrors;
  if (first !== undefined)
    throw describe(path, text, first.error, offsets.get(first.policyId) ?? 0);
  return record;
}

/** Validated and loaded into the engine under `setId` (a rule's id and version). */
export function compilePolicy(setId: string, text: string): CompiledPolicy {
  const record = checkPolicy(text);
  const loaded = cedar().preparsePolicySet(setId, { staticPolicies: record });
  if (loaded.type !== 'success')
    throw new Error(`policy set ${setId}: ${loaded.errors[0]?.message}`);
  const messages = new Map<string, string>();
  for (const [id, policy] of Object.entries(record)) {
    const json = cedar().policyToJson(policy);
    const message = json.type === 'success' ? json.json.annotations?.message : undefined;
    if (message !== undefined) messages.set(id, message);
  }
  return { ids: Object.keys(record), messages, setId };
}

export interface PolicyFacts {
  actionName: string;
  title: string;
  args: Record<string, unknown>;
  keyId: string;
  sessionId: string | null;
  risk?: string;
  labels?: readonly string[];
}

export type PolicyDecision =
  | { decision: 'approve'; policyIds: string[] }
  | { decision: 'reject'; policyIds: string[]; message: string }
  | { decision: null }
  | { decision: 'error'; error: string };

/** The arguments' leaves by dotted path, split by type (integers, strings, booleans). */
export function argumentTags(args: Record<string, unknown>): {
  numbers: Record<string, number>;
  strings: Record<string, string>;
  flags: Record<string, boolean>;
} {
  const tags = {
    numbers: {} as Record<string, number>,
    strings: {} as Record<string, string>,
    flags: {} as Record<string, boolean>,
  };
  const walk = (value: unknown, path: string, depth: number) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) tags.numbers[path] = value;
    else if (typeof value === 'string') tags.strings[path] = value;
    else if (typeof value === 'boolean') tags.flags[path] = value;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value) && depth < 8)
      for (const [k, v] of Object.entries(value))
        walk(v, path === '' ? k : `${path}.${k}`, depth + 1);
  };
  walk(args, '', 0);
  return tags;
}

/** One action request against a compiled policy set. */
export function evaluatePolicy(policy: CompiledPolicy, facts: PolicyFacts): PolicyDecision {
  prepareSchema();
  const tags = argumentTags(facts.args);
  const id = facts.actionName;
  const ref = (type: string) => ({ __entity: { type, id } });
  const entities: CedarWasm.EntityJson[] = [
    {
      uid: { type: 'ActionRequest', id },
      attrs: {
        name: facts.actionName,
        title: facts.title,
        numbers: ref('Numbers'),
        strings: ref('Strings'),
        flags: ref('Flags'),
        labels: [...(facts.labels ?? [])],
        ...(facts.risk === undefined ? {} : { risk: facts.risk }),
        ...(facts.sessionId === null
          ? {}
          : { session: { __entity: { type: 'Session', id: facts.sessionId } } }),
      },
      parents: [],
    },
    { uid: { type: 'Numbers', id }, attrs: {}, parents: [], tags: tags.numbers },
    { uid: { type: 'Strings', id }, attrs: {}, parents: [], tags: tags.strings },
    { uid: { type: 'Flags', id }, attrs: {}, parents: [], tags: tags.flags },
    { uid: { type: 'Key', id: facts.keyId }, attrs: {}, parents: [] },
    ...(facts.sessionId === null
      ? []
      : [{ uid: { type: 'Session', id: facts.sessionId }, attrs: {}, parents: [] }]),
  ];
  const answer = cedar().statefulIsAuthorized({
    principal: { type: 'Key', id: facts.keyId },
    action: { type: 'Action', id: 'run' },
    resource: { type: 'ActionRequest', id },
    context: {},
    preparsedPolicySetId: policy.setId,
    preparsedSchemaName: SCHEMA_NAME,
    validateRequest: true,
    entities,
  });
  if (answer.type !== 'success')
    return { decision: 'error', error: answer.errors[0]?.message ?? 'the engine failed' };
  const { decision, diagnostics } = answer.response;
  if (diagnostics.errors.length > 0) {
    const e = diagnostics.errors[0];
    return { decision: 'error', error: `policy ${e.policyId}: ${e.error.message}` };
  }
  const policyIds = [...diagnostics.reason].sort();
  if (decision === 'allow') return { decision: 'approve', policyIds };
  if (policyIds.length === 0) return { decision: null };
  const message =
    policyIds.map((p) => policy.messages.get(p)).find((m) => m !== undefined) ??
    `Forbidden by policy ${policyIds[0]}.`;
  return { decision: 'reject', policyIds, message };
}
