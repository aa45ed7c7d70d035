import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { requiredAnyOf } from '../http/require-any-of.decorator';
import { LAST_EVENT_ID_MAX } from '../http/sse-event.util';
import { NOT_BLANK_PATTERN, NUL_FREE_PATTERN } from '../http/text-patterns';

/**
 * Request constraints the service enforces and the contract must state (issue 10): what the
 * validation pipe and the request hygiene refuse, derived from the validators themselves where
 * they say it, so the contract cannot drift from them.
 */

// A loose JSON Schema object: the parts of OpenAPI 3.0 schemas this module reads and writes.
type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  required?: string[];
};

/** Formats whose values cannot hold a NUL character anyway. */
const NUL_FREE_FORMATS = new Set(['uuid', 'email', 'date-time', 'date']);

export const JSON_VALUE = 'JsonValue';
export const JSON_OBJECT = 'JsonObject';
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * Free-form JSON the API takes (`args`, `metadata`, `editedArgs`): any JSON, but no NUL in a
 * string or a key (Postgres cannot store it). `propertyNames` is JSON Schema's, beyond OpenAPI
 * 3.0's subset: tools that know it (schemathesis) honour it, the others ignore it.
 */
const JSON_SCHEMAS: Record<string, Schema> = {
  [JSON_VALUE]: {
    description: 'Any JSON value; strings hold no NUL character (U+0000).',
    anyOf: [
      { type: 'string', pattern: NUL_FREE_PATTERN },
      { type: 'number' },
      { type: 'boolean', nullable: true },
      { type: 'array', items: ref(JSON_VALUE) },
      ref(JSON_OBJECT),
    ],
  },
  [JSON_OBJECT]: {
    type: 'object',
    description: 'A JSON object; no NUL character (U+0000) in its keys or strings.',
    additionalProperties: ref(JSON_VALUE),
    propertyNames: { pattern: NUL_FREE_PATTERN },
  },
};

/** The schema each validator implies, for the validators the API uses on request fields. */
function impliedBy(meta: ValidationMetadata): Schema | undefined {
  const [first, second] = meta.constraints ?? [];
  switch (meta.name) {
    case 'matches':
      return first instanceof RegExp && first.source === '\\S'
        ? { pattern: NOT_BLANK_PATTERN }
        : undefined;
    case 'isLength':
      return { minLength: first, ...(second === undefined ? {} : { maxLength: second }) };
    case 'maxLength':
      return { maxLength: first };
    case 'minLength':
      return { minLength: first };
    case 'arrayMinSize':
      return { minItems: first };
    case 'arrayMaxSize':
      return { maxItems: first };
    case 'arrayUnique':
      return { uniqueItems: true };
    case 'isUuid':
      return { format: 'uuid' };
    case 'min':
      return { minimum: first };
    case 'max':
      return { maximum: first };
    default:
      return undefined;
  }
}

/** Adds to `document` the request constraints the validators enforce and it does not state. */
export function stateRequestConstraints(document: OpenAPIObject): void {
  const schemas = ((document.components ??= {}).schemas ??= {});
  Object.assign(schemas, JSON_SCHEMAS);
  const requestSchemas = reachableFromRequests(document);

  // 1. What the validators say, field by field. (class-validator's storage keeps them per class
  //    in a map it does not export a reader for; the classes are what the schemas are named after.)
  type Target = abstract new (...args: never[]) => unknown;
  for (const meta of getMetadataStorage()['validationMetadatas'] as unknown as Iterable<
    [Target, ValidationMetadata[]]
  >) {
    const [target, list] = meta;
    const schema = schemas[target.name] as Schema | undefined;
    if (schema === undefined || !requestSchemas.has(target.name)) continue;
    // @RequireAnyOf: some field must be given (the others are refused as unknown).
    if (requiredAnyOf(target) !== undefined) schema.minProperties = 1;
    for (const validation of list) {
      const implied = impliedBy(validation);
      const property = schema.properties?.[validation.propertyName];
      if (implied === undefined || property === undefined) continue;
      const onto = validation.each ? (itemsOf(property) ?? property) : property;
      for (const [key, value] of Object.entries(implied))
        if (onto[key] === undefined) onto[key] = value;
    }
  }

  // 2. Every request object refuses unknown fields; its free-form objects are JSON without NUL;
  //    every other string holds no NUL.
  for (const name of requestSchemas) {
    const schema = schemas[name] as Schema;
    if (schema.type === 'object' || schema.properties !== undefined) {
      schema.additionalProperties ??= false;
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        (schema.properties as Record<string, Schema>)[key] = tightened(property);
      }
    }
  }

  // 3. Query, header and path parameters: no NUL in any string; Last-Event-ID as parsed.
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation))
        continue;
      for (const parameter of (operation.parameters ?? []) as {
        in?: string;
        name?: string;
        schema?: Schema;
      }[]) {
        if (parameter.schema === undefined) continue;
        parameter.schema = tightened(parameter.schema);
        if (parameter.in === 'header' && parameter.name?.toLowerCase() === 'last-event-id')
          parameter.schema.maximum = LAST_EVENT_ID_MAX;
      }
    }
  }
}

/** A property schema with a free-form object as JsonObject and plain strings NUL-free. */
function tightened(property: Schema): Schema {
  if (property.$ref !== undefined || property.allOf !== undefined || property.oneOf !== undefined)
    return property;
  if (
    property.type === 'object' &&
    property.properties === undefined &&
    property.additionalProperties === true
  ) {
    const { type: _type, additionalProperties: _free, ...rest } = property;
    return { ...rest, allOf: [ref(JSON_OBJECT)] };
  }
  if (property.type === 'array' && property.items !== undefined)
    return { ...property, items: tightened(property.items) };
  if (
    property.type === 'string' &&
    property.enum === undefined &&
    !NUL_FREE_FORMATS.has(property.format ?? '') &&
    property.pattern === undefined
  ) {
    return { ...property, pattern: NUL_FREE_PATTERN };
  }
  return property;
}

function itemsOf(property: Schema): Schema | undefined {
  return property.type === 'array' ? property.items : undefined;
}

/** Component schemas a request body uses, directly or through others. */
function reachableFromRequests(document: OpenAPIObject): Set<string> {
  const found = new Set<string>();
  const schemas = document.components?.schemas ?? {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const refValue = (node as { $ref?: unknown }).$ref;
    if (typeof refValue === 'string' && refValue.startsWith('#/components/schemas/')) {
      const name = refValue.slice('#/components/schemas/'.length);
      if (!found.has(name)) {
        found.add(name);
        visit(schemas[name]);
      }
      return;
    }
    Object.values(node).forEach(visit);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation === 'object' && operation !== null && 'requestBody' in operation)
        visit(operation.requestBody);
    }
  }
  // Enums are shared with responses and take no object rules; the JSON schemas are already tight.
  for (const name of [...found]) {
    const schema = schemas[name] as Schema | undefined;
    if (
      schema === undefined ||
      schema.enum !== undefined ||
      name === JSON_VALUE ||
      name === JSON_OBJECT
    )
      found.delete(name);
  }
  return found;
}
