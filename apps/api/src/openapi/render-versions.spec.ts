import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_RENDER_VERSION } from '@interlock/audit';
import { RECORD_RENDER_VERSION } from '../interrupts/interrupt-record';

/**
 * Renderings the service keeps and answers as they were stored (issue 36 §2): each is stamped
 * with its renderer's version and made again on read when the version differs. A change to the
 * response type that does not raise the version would keep answering the old shape for every
 * stored row, so each version is pinned to the shape of the response it renders, as the
 * committed contract (`contract/openapi.json`, held equal to the code by `codegen --check`)
 * describes it: the fields, their types and formats, what is required or nullable, and the
 * same of every schema it refers to. Descriptions, examples and the values of enums (a new audit
 * action, a new reason) are not the rendering's shape.
 *
 * When this fails: raise the version (its comment says how), run the spec, and pin the shape it
 * prints under the new version. Earlier versions keep their shapes.
 */
const RENDERINGS = [
  {
    schema: 'InterruptResponse',
    constant: 'RECORD_RENDER_VERSION (apps/api/src/interrupts/interrupt-record.ts)',
    version: RECORD_RENDER_VERSION,
    shapes: {
      3: '9c6bcba17ac49a8e',
      4: '1cc91b1a60f6b417',
      5: '0db3529f27a226cf',
      6: '8310079a7ccf6c61',
      7: '1015272186aa02aa',
      8: '83d69103fba92f44',
      9: 'e6ea14beb2769948',
    } as Record<number, string>,
  },
  {
    schema: 'AuditEntryResponse',
    constant:
      'AUDIT_RENDER_VERSION (libs/audit/src/audit-query.ts) with a migration replacing audit_log_entry_json',
    version: AUDIT_RENDER_VERSION,
    shapes: { 1: '1e4d79f38048075a' } as Record<number, string>,
  },
];

type Schema = Record<string, unknown>;
const schemas = (
  JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', '..', 'contract', 'openapi.json'), 'utf8'),
  ) as {
    components: { schemas: Record<string, Schema> };
  }
).components.schemas;

const IGNORED = new Set(['description', 'example', 'examples', 'title', 'enumName']);

/** The schema with what is not its shape left out, and every reference replaced by its target's shape. */
function shape(value: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => shape(v, seen));
  if (value === null || typeof value !== 'object') return value;
  const out: Schema = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Schema)[key];
    if (IGNORED.has(key)) continue;
    if (key === 'enum') out.enum = typeof (v as unknown[])[0];
    else if (key === '$ref') {
      const name = String(v).split('/').pop() as string;
      out.$ref = seen.includes(name) ? name : { [name]: shape(schemas[name], [...seen, name]) };
    } else out[key] = shape(v, seen);
  }
  return out;
}

const digest = (name: string) =>
  createHash('sha256')
    .update(JSON.stringify(shape(schemas[name], [name])))
    .digest('hex')
    .slice(0, 16);

describe('the versions of stored renderings', () => {
  it.each(RENDERINGS)(
    '$schema: the shape its version renders is the one pinned to it',
    ({ schema, constant, version, shapes }) => {
      expect(schemas[schema]).toBeDefined();
      const now = digest(schema);
      if (shapes[version] !== now) {
        throw new Error(
          `${schema}'s shape is ${now}, but version ${version} renders ${shapes[version] ?? '(nothing pinned)'}: ` +
            `stored renderings would keep the old shape. Raise ${constant} and pin ${now} under the new version.`,
        );
      }
    },
  );

  it.each(RENDERINGS)('$schema: each version renders a shape of its own', ({ shapes }) => {
    const pinned = Object.values(shapes);
    expect(new Set(pinned).size).toBe(pinned.length);
  });

  it('tells a change of shape from a change of words', () => {
    const base = {
      properties: { a: { type: 'string', description: 'x', enum: ['p'] } },
      required: ['a'],
    };
    const words = {
      properties: { a: { type: 'string', description: 'y', enum: ['p', 'q'] } },
      required: ['a'],
    };
    const field = {
      properties: { a: { type: 'string', description: 'x', enum: ['p'] }, b: { type: 'string' } },
      required: ['a'],
    };
    expect(JSON.stringify(shape(words))).toBe(JSON.stringify(shape(base)));
    expect(JSON.stringify(shape(field))).not.toBe(JSON.stringify(shape(base)));
  });
});
