// Typed human input (issue 32 §2, SPEC §5): an action request may carry a `responseSchema`, a
// bounded subset of JSON Schema that the dashboard renders as a form and this file checks — the
// schema when the interrupt is created, the member's `response` when they answer with it. The
// subset is what the SDKs' zod and pydantic models give for flat records: an object of string,
// number, integer, boolean, enum and arrays of those, with titles and descriptions.

/** At most this many fields in one responseSchema. */
export const RESPONSE_SCHEMA_MAX_FIELDS = 50;
/** At most this many values in one enum. */
export const RESPONSE_SCHEMA_MAX_ENUM = 100;
/** The schema as JSON text, at most this many characters. */
export const RESPONSE_SCHEMA_MAX_CHARS = 20_000;

export type ScalarType = 'string' | 'number' | 'integer' | 'boolean';
const SCALAR_TYPES: readonly ScalarType[] = ['string', 'number', 'integer', 'boolean'];

const ANNOTATIONS = ['title', 'description'] as const;
const SCALAR_KEYWORDS: Record<ScalarType, readonly string[]> = {
  string: ['minLength', 'maxLength'],
  number: ['minimum', 'maximum'],
  integer: ['minimum', 'maximum'],
  boolean: [],
};
const ROOT_KEYWORDS = ['type', 'properties', 'required', 'additionalProperties', '$schema'];
const ARRAY_KEYWORDS = ['minItems', 'maxItems', 'uniqueItems'];

/** A field of a responseSchema (a property of its object). */
export interface ResponseField {
  type: ScalarType | 'array';
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: ResponseField;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export interface ResponseSchema {
  type: 'object';
  title?: string;
  description?: string;
  properties: Record<string, ResponseField>;
  required?: string[];
  additionalProperties?: false;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The first thing wrong with `schema` as a responseSchema, as a sentence starting with `at` (the
 * field's path), or null when it is one. Anything outside the subset is refused by name, so
 * what the server validates is what the dashboard renders.
 */
export function responseSchemaProblem(schema: unknown, at: string): string | null {
  if (!isObject(schema)) return `${at} must be an object (a JSON Schema)`;
  if (JSON.stringify(schema).length > RESPONSE_SCHEMA_MAX_CHARS)
    return `${at} must be at most ${RESPONSE_SCHEMA_MAX_CHARS} characters as JSON`;
  const unknown = Object.keys(schema).find(
    (k) => !ROOT_KEYWORDS.includes(k) && !(ANNOTATIONS as readonly string[]).includes(k),
  );
  if (unknown !== undefined) return `${at}.${unknown} is not supported`;
  if (schema.type !== 'object') return `${at}.type must be object`;
  const annotation = annotationProblem(schema, at);
  if (annotation) return annotation;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false)
    return `${at}.additionalProperties must be false when given`;
  const { properties } = schema;
  if (!isObject(properties)) return `${at}.properties must be an object`;
  const names = Object.keys(properties);
  if (names.length < 1 || names.length > RESPONSE_SCHEMA_MAX_FIELDS)
    return `${at}.properties must have 1 to ${RESPONSE_SCHEMA_MAX_FIELDS} fields`;
  for (const name of names) {
    if (name.length < 1 || name.length > 200)
      return `${at}.properties names must be 1 to 200 characters`;
    const problem = fieldProblem(properties[name], `${at}.properties.${name}`, true);
    if (problem) return problem;
  }
  if (schema.required !== undefined) {
    const { required } = schema;
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string'))
      return `${at}.required must be an array of field names`;
    if (new Set(required).size !== required.length) return `${at}.required must not repeat a field`;
    const missing = required.find((r) => !names.includes(r));
    if (missing !== undefined) return `${at}.required names ${missing}, which is not a field`;
  }
  return null;
}

function annotationProblem(schema: Record<string, unknown>, at: string): string | null {
  for (const key of ANNOTATIONS) {
    const value = schema[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > (key === 'title' ? 200 : 2_000))
      return `${at}.${key} must be a string of at most ${key === 'title' ? 200 : 2_000} characters`;
  }
  return null;
}

function fieldProblem(field: unknown, at: string, arrayAllowed: boolean): string | null {
  if (!isObject(field)) return `${at} must be an object`;
  const type = field.type;
  if (type === 'array') {
    if (!arrayAllowed) return `${at}.type must be one of ${SCALAR_TYPES.join(', ')}`;
    const unknown = Object.keys(field).find(
      (k) =>
        !['type', 'items', 'default', ...ARRAY_KEYWORDS].includes(k) &&
        !(ANNOTATIONS as readonly string[]).includes(k),
    );
    if (unknown !== undefined) return `${at}.${unknown} is not supported`;
    const annotation = annotationProblem(field, at);
    if (annotation) return annotation;
    for (const k of ['minItems', 'maxItems'])
      if (field[k] !== undefined && !isCount(field[k]))
        return `${at}.${k} must be a non-negative integer`;
    if (field.uniqueItems !== undefined && typeof field.uniqueItems !== 'boolean')
      return `${at}.uniqueItems must be a boolean`;
    const items = fieldProblem(field.items, `${at}.items`, false);
    if (items) return items;
    if (field.default !== undefined)
      return valueProblem(field.default, field as unknown as ResponseField, `${at}.default`);
    return null;
  }
  if (!SCALAR_TYPES.includes(type as ScalarType))
    return `${at}.type must be one of ${[...SCALAR_TYPES, ...(arrayAllowed ? ['array'] : [])].join(', ')}`;
  const scalar = type as ScalarType;
  const unknown = Object.keys(field).find(
    (k) =>
      !['type', 'enum', 'default', ...SCALAR_KEYWORDS[scalar]].includes(k) &&
      !(ANNOTATIONS as readonly string[]).includes(k),
  );
  if (unknown !== undefined) return `${at}.${unknown} is not supported`;
  const annotation = annotationProblem(field, at);
  if (annotation) return annotation;
  for (const k of ['minLength', 'maxLength'])
    if (field[k] !== undefined && !isCount(field[k]))
      return `${at}.${k} must be a non-negative integer`;
  for (const k of ['minimum', 'maximum'])
    if (field[k] !== undefined && (typeof field[k] !== 'number' || !Number.isFinite(field[k])))
      return `${at}.${k} must be a number`;
  if (field.enum !== undefined) {
    const values = field.enum;
    if (!Array.isArray(values) || values.length < 1 || values.length > RESPONSE_SCHEMA_MAX_ENUM)
      return `${at}.enum must have 1 to ${RESPONSE_SCHEMA_MAX_ENUM} values`;
    for (const value of values) {
      const problem = typeProblem(value, scalar, `${at}.enum`);
      if (problem) return `${problem} (each value)`;
    }
  }
  if (field.default !== undefined)
    return valueProblem(field.default, field as unknown as ResponseField, `${at}.default`);
  return null;
}

function typeProblem(value: unknown, type: ScalarType, at: string): string | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : `${at} must be a string`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${at} must be a boolean`;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
        ? null
        : `${at} must be an integer`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${at} must be a number`;
  }
}

/** The first thing wrong with `value` for `field`, or null. */
function valueProblem(value: unknown, field: ResponseField, at: string): string | null {
  if (field.type === 'array') {
    if (!Array.isArray(value)) return `${at} must be an array`;
    if (field.minItems !== undefined && value.length < field.minItems)
      return `${at} must have at least ${field.minItems} items`;
    if (field.maxItems !== undefined && value.length > field.maxItems)
      return `${at} must have at most ${field.maxItems} items`;
    if (
      field.uniqueItems === true &&
      new Set(value.map((v) => JSON.stringify(v))).size < value.length
    )
      return `${at} must not repeat an item`;
    for (let i = 0; i < value.length; i++) {
      const problem = valueProblem(value[i], field.items as ResponseField, `${at}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  const typed = typeProblem(value, field.type, at);
  if (typed) return typed;
  if (field.enum !== undefined && !field.enum.some((e) => e === value))
    return `${at} must be one of ${field.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (typeof value === 'string') {
    const length = Array.from(value).length;
    if (field.minLength !== undefined && length < field.minLength)
      return `${at} must be at least ${field.minLength} characters`;
    if (field.maxLength !== undefined && length > field.maxLength)
      return `${at} must be at most ${field.maxLength} characters`;
  }
  if (typeof value === 'number') {
    if (field.minimum !== undefined && value < field.minimum)
      return `${at} must be at least ${field.minimum}`;
    if (field.maximum !== undefined && value > field.maximum)
      return `${at} must be at most ${field.maximum}`;
  }
  return null;
}

/** The first thing wrong with a member's `response` for `schema`, or null when it conforms. */
export function responseProblem(response: unknown, schema: ResponseSchema): string | null {
  if (!isObject(response)) return 'response must be an object';
  for (const name of Object.keys(response))
    if (!Object.prototype.hasOwnProperty.call(schema.properties, name))
      return `response.${name} is not a field of this action's responseSchema`;
  for (const name of schema.required ?? [])
    if (response[name] === undefined) return `response.${name} is required`;
  for (const [name, field] of Object.entries(schema.properties)) {
    if (response[name] === undefined) continue;
    const problem = valueProblem(response[name], field, `response.${name}`);
    if (problem) return problem;
  }
  return null;
}
