import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_BODY_RULES, OPERATION_LINKS } from './operation-contract';

/**
 * The contract's OpenAPI links (issue 34 item 15) are what the contract test's stateful phase
 * walks: a link to an operation that does not exist, a parameter the target does not take, a
 * target path parameter left unfilled, or a `$response.body#/…` / `$request.body#/…` pointer
 * that the schemas do not hold is a link the phase silently cannot follow. Read from the
 * committed contract (`contract/openapi.json`, held equal to the code by `codegen --check`).
 */
type Schema = {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }>; links?: unknown }>;
};

const contract = JSON.parse(
  readFileSync(join(__dirname, '../../../../contract/openapi.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const operations = new Map<string, Operation>();
for (const item of Object.values(contract.paths))
  for (const op of Object.values(item)) if (op?.operationId) operations.set(op.operationId, op);

function resolve(schema: Schema): Schema[] {
  if (schema.$ref !== undefined)
    return resolve(contract.components.schemas[schema.$ref.split('/').pop() as string]);
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? [])];
  return [schema, ...parts.flatMap(resolve)];
}

/** Whether a JSON pointer (`/member/id`, `/actionRequests/0/name`) names a place in the schema. */
function holds(schema: Schema, pointer: string): boolean {
  const [step, ...rest] = pointer.split('/').slice(1);
  if (step === undefined) return true;
  return resolve(schema).some((s) => {
    if (/^\d+$/.test(step) && s.items !== undefined)
      return holds(s.items, `/${rest.join('/')}`.replace(/^\/$/, ''));
    const next = s.properties?.[step];
    return next !== undefined && holds(next, rest.length ? `/${rest.join('/')}` : '');
  });
}

const jsonSchemaOf = (c?: Record<string, { schema: Schema }>) => c?.['application/json']?.schema;

describe('the contract’s OpenAPI links', () => {
  const links = Object.entries(OPERATION_LINKS).flatMap(([source, out]) =>
    Object.entries(out).map(([name, link]) => ({ source, name, ...link })),
  );

  it('are in the contract, on each source operation’s success response', () => {
    for (const { source, name } of links) {
      const op = operations.get(source);
      expect({ source, found: op !== undefined }).toEqual({ source, found: true });
      const success = Object.entries(op?.responses ?? {}).find(([s]) => s.startsWith('2'))?.[1];
      expect({ source, name, linked: Object.keys((success?.links ?? {}) as object) }).toEqual(
        expect.objectContaining({ linked: expect.arrayContaining([name]) }),
      );
    }
  });

  it('lead to existing operations, filling exactly their path parameters, from pointers the schemas hold', () => {
    const problems: string[] = [];
    for (const link of links) {
      const source = operations.get(link.source) as Operation;
      const target = operations.get(link.operationId);
      if (target === undefined) {
        problems.push(`${link.name}: no operation ${link.operationId}`);
        continue;
      }
      const pathParams = (target.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      const given = Object.keys(link.parameters ?? {});
      if (given.sort().join() !== [...pathParams].sort().join())
        problems.push(`${link.name}: fills ${given} of ${link.operationId}'s ${pathParams}`);
      const successSchema = jsonSchemaOf(
        Object.entries(source.responses).find(([s]) => s.startsWith('2'))?.[1]?.content,
      );
      const requestSchema = jsonSchemaOf(source.requestBody?.content);
      const sourcePath = (source.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      const expressions = [
        ...Object.values(link.parameters ?? {}),
        ...Object.values((link.requestBody ?? {}) as Record<string, unknown>),
      ].filter((v): v is string => typeof v === 'string' && v.startsWith('$'));
      for (const expression of expressions) {
        const [, where, pointer] = /^\$(response\.body|request\.body|request\.path\.)#?(.*)$/.exec(
          expression,
        ) ?? [undefined, undefined, undefined];
        const ok =
          where === 'response.body'
            ? successSchema !== undefined && holds(successSchema, pointer ?? '')
            : where === 'request.body'
              ? requestSchema !== undefined && holds(requestSchema, pointer ?? '')
              : where === 'request.path.'
                ? sourcePath.includes(pointer ?? '')
                : false;
        if (!ok) problems.push(`${link.name} (${link.source}): ${expression} holds nothing`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('into bodies that must name a member, the operation says so (callerMember), so the contract test names its own', () => {
    for (const target of ['addTeamMember', 'assignInterrupt'])
      expect(OPERATION_BODY_RULES[target]?.callerMember).toEqual(['memberId']);
  });
});
