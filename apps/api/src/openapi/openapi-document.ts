import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  HeadersObject,
  ParameterObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { declaredRoutes } from '../auth/route-declarations.util';
import { describePermission, RouteAccess } from '../auth/decorators/route-access.decorator';
import { assertNever } from '../auth/principal';
import { ERROR_CODES } from '@interlock/domain';
import type { ErrorCode } from '@interlock/domain';
import { stateRequestConstraints } from './contract-constraints';
import {
  stateClassificationRules,
  stateCrossFieldRules,
  stateEventStreams,
} from './contract-schemas';
import { ORGANISATION_HEADER, ORGANISATION_QUERY } from '../auth/organisation-choice.util';
import { ErrorBody } from './error-body.schema';
import {
  OPERATION_BODY_RULES,
  OPERATION_ERRORS,
  OPERATION_LINKS,
  OPERATION_QUERY_RULES,
} from './operation-contract';
import { webhookEventUnionSchema } from '../webhooks/dto/webhook-event.schema';

export const API_KEY_SCHEME = 'apiKey';
export const SESSION_SCHEME = 'session';

type ErrorCase = { status: string; description: string; headers?: HeadersObject };

const RETRY_AFTER: HeadersObject = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
};
/** IETF draft-ietf-httpapi-ratelimit-headers (draft 6): on every answer to a key (SPEC §8b). */
const RATE_LIMIT_HEADERS: HeadersObject = {
  'RateLimit-Limit': {
    description: "The organisation's requests per window.",
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in this window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window renews.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Policy': {
    description: 'The budget as `<requests>;w=<window seconds>`.',
    schema: { type: 'string' },
  },
};
const takesKeys = (access: RouteAccess) =>
  access.principal === 'api_key' || access.principal === 'api_key_or_member';

/** The errors a route can answer, from what it admits (SPEC §4). */
function errorsFor(
  access: RouteAccess,
  method: string,
  hasParams: boolean,
  hasQuery: boolean,
): ErrorCase[] {
  const errors: ErrorCase[] = [];
  const add = (status: string, description: string) => errors.push({ status, description });
  if (method === 'delete') {
    add(
      '400',
      `VALIDATION_FAILED: a body other than none or {} (DELETE takes none)${hasQuery ? ', or a malformed query parameter' : ''} (the message names it).`,
    );
  } else if (hasQuery && method === 'get') {
    add(
      '400',
      'VALIDATION_FAILED: a malformed query parameter, cursor or timestamp (the message names it).',
    );
  }
  if (method !== 'get' && method !== 'delete') {
    add(
      '400',
      'VALIDATION_FAILED: a malformed or invalid body or parameter (the message names it).',
    );
    add('413', 'PAYLOAD_TOO_LARGE: the JSON body is over 1 MiB.');
    add('415', 'UNSUPPORTED_MEDIA_TYPE: the body is not JSON.');
  }
  switch (access.principal) {
    case 'api_key':
      add('401', 'MISSING_API_KEY, INVALID_API_KEY or API_KEY_EXPIRED.');
      if (access.plan) add('402', 'PLAN_REQUIRED: this endpoint needs the Pro plan.');
      break;
    case 'member':
      add('401', 'SIGN_IN_REQUIRED: no valid session cookie.');
      add(
        '403',
        'HUMANS_ONLY (a request carrying x-api-key), MISSING_PERMISSION, CSRF_REJECTED, FORBIDDEN: no x-organisation-id ' +
          'and the person is a member of no organisation, or a single sign-on session naming another organisation, or ' +
          'SSO_REQUIRED: a password sign-in session naming an organisation that requires single sign-on, or ' +
          'TWO_FACTOR_ENROLMENT_REQUIRED: a password sign-in session of a person without two-factor sign-in naming an ' +
          'organisation that requires it (SPEC §8f).',
      );
      break;
    case 'user':
      add('401', 'SIGN_IN_REQUIRED: no valid session cookie.');
      add('403', 'HUMANS_ONLY (a request carrying x-api-key), or CSRF_REJECTED.');
      break;
    case 'api_key_or_member':
      add(
        '401',
        'A key request (x-api-key present, or no credential at all): MISSING_API_KEY, INVALID_API_KEY or API_KEY_EXPIRED. ' +
          'A cookie request: SIGN_IN_REQUIRED.',
      );
      if (access.plan)
        add(
          '402',
          `PLAN_REQUIRED: a key needs the ${access.plan === 'pro' ? 'Pro' : 'Free'} plan (members do not).`,
        );
      add(
        '403',
        `MISSING_PERMISSION: a member without ${describePermission(access.permission)}; FORBIDDEN: no x-organisation-id and the person is a member of no organisation, or a single sign-on session naming another organisation; SSO_REQUIRED: a password sign-in session naming an organisation that requires single sign-on; TWO_FACTOR_ENROLMENT_REQUIRED: a password sign-in session of a person without two-factor sign-in naming an organisation that requires it (SPEC §8f).`,
      );
      break;
    case 'human':
      add('403', 'HUMANS_ONLY: a request carrying x-api-key; or CSRF_REJECTED.');
      break;
    case 'public':
      break;
  }
  const chosen = access.principal === 'member' || access.principal === 'api_key_or_member';
  if (chosen) {
    add(
      '400',
      `VALIDATION_FAILED: a malformed ${ORGANISATION_HEADER}, or none from a member of several organisations.`,
    );
  }
  if (hasParams || chosen) {
    add(
      '404',
      chosen
        ? `NOT_FOUND: no such resource in this organisation, or ${ORGANISATION_HEADER} names an organisation the person is not a member of.`
        : 'NOT_FOUND: no such resource in this organisation.',
    );
  }
  if (
    (access.principal === 'member' || access.principal === 'user') &&
    method !== 'get' &&
    method !== 'head'
  ) {
    errors.push({
      status: '429',
      description:
        "RATE_LIMITED: the signed-in person's write budget for this window is spent (SPEC §8b); retry after Retry-After.",
      headers: RETRY_AFTER,
    });
  } else if (takesKeys(access)) {
    errors.push({
      status: '429',
      description:
        "RATE_LIMITED: the organisation's request budget for this window is spent (SPEC §8b); retry after Retry-After.",
      headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS },
    });
  }
  add('500', 'INTERNAL_ERROR.');
  errors.push({
    status: '503',
    description: 'SERVICE_UNAVAILABLE: the database cannot be reached; retry after Retry-After.',
    headers: RETRY_AFTER,
  });
  return errors;
}

/**
 * The one contract: Nest's route metadata and DTO decorators, plus — from each route's access
 * declaration — its security scheme and the SPEC §4 error responses, so they cannot drift from
 * the guards.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Interlock API')
    .setDescription(
      'Human review for software agents. Machine endpoints take an organisation API key in the ' +
        '`x-api-key` header; human endpoints take the `session` cookie and refuse any request carrying a key. ' +
        'Reads shared with the dashboard take either: a request carrying `x-api-key` is a key request, otherwise the cookie decides.',
    )
    .setVersion('1.0.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, API_KEY_SCHEME)
    .addCookieAuth('session', { type: 'apiKey', in: 'cookie', name: 'session' }, SESSION_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorBody],
    operationIdFactory: (_controller, method) => method,
  });
  // The bodies webhooks deliver (no route returns them; the SDKs' webhooks.unwrap does).
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, WebhookEvent: webhookEventUnionSchema() },
  };

  const errorRef = { $ref: `#/components/schemas/${ErrorBody.name}` };
  for (const route of declaredRoutes(app)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[path]?.[route.method.toLowerCase() as 'get'];
    if (operation === undefined || route.access === undefined) continue;
    operation.security = securityOf(route.access);
    const extensions = operation as unknown as Record<string, unknown>;
    extensions['x-interlock-access'] = route.access;
    if (route.access.principal === 'member' || route.access.principal === 'api_key_or_member') {
      operation.parameters = [
        ...(operation.parameters ?? []),
        organisationHeader(route.access.principal),
      ];
    }
    const hasQuery = (operation.parameters ?? []).some(
      (p) => 'in' in p && p.in === 'query' && p.name !== ORGANISATION_QUERY,
    );
    const cases = errorsFor(
      route.access,
      route.method.toLowerCase(),
      /\{\w+\}/.test(path),
      hasQuery,
    );
    for (const status of new Set(cases.map((c) => c.status))) {
      const same = cases.filter((c) => c.status === status);
      const headers = Object.assign({}, ...same.map((c) => c.headers ?? {})) as HeadersObject;
      operation.responses[status] ??= {
        description: same.map((c) => c.description).join(' Or '),
        content: { 'application/json': { schema: errorRef } },
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
      };
    }
    // The errors of the operation's own rules, beside those of its access.
    for (const [code, why] of Object.entries(OPERATION_ERRORS[operation.operationId ?? ''] ?? {})) {
      const status = String(ERROR_CODES[code as ErrorCode]);
      const existing = operation.responses[status] as { description?: string } | undefined;
      const text = `${code}: ${why}.`;
      if (existing === undefined) {
        operation.responses[status] = {
          description: text,
          content: { 'application/json': { schema: errorRef } },
          ...(code === 'RATE_LIMITED' ? { headers: RETRY_AFTER } : {}),
        };
      } else if (!existing.description?.includes(text)) {
        existing.description = `${existing.description ?? ''} ${text}`.trim();
      }
    }
    // Successful answers to a key carry its organisation's budget.
    if (takesKeys(route.access)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (response !== undefined && status.startsWith('2') && !('$ref' in response)) {
          response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
        }
      }
    }
    const rules = OPERATION_QUERY_RULES[operation.operationId ?? ''];
    if (rules !== undefined) extensions['x-interlock-query-rules'] = rules;
    const bodyRules = OPERATION_BODY_RULES[operation.operationId ?? ''];
    if (bodyRules !== undefined) extensions['x-interlock-body-rules'] = bodyRules;
    const links = OPERATION_LINKS[operation.operationId ?? ''] ?? {};
    if (Object.keys(links).length > 0) {
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
      const response = success === undefined ? undefined : operation.responses[success];
      if (response !== undefined && !('$ref' in response)) response.links = links;
    }
  }
  stateRequestConstraints(document);
  stateCrossFieldRules(document);
  stateClassificationRules(document);
  stateEventStreams(document);
  return sortKeys(document) as OpenAPIObject;
}

/** The header a signed-in person chooses the organisation with (docs/DECISIONS.md, "Users and memberships"). */
function organisationHeader(principal: 'member' | 'api_key_or_member'): ParameterObject {
  return {
    name: ORGANISATION_HEADER,
    in: 'header',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description:
      'The organisation a signed-in person acts for: one of their current memberships (GET /api/me lists them). ' +
      'Optional for a member of exactly one organisation.' +
      (principal === 'api_key_or_member'
        ? ' Ignored on a key request: a key acts for its own organisation.'
        : ''),
  };
}

/** The security requirement of a route: alternatives, so a shared read lists both schemes. */
function securityOf(access: RouteAccess): Record<string, string[]>[] {
  switch (access.principal) {
    case 'api_key':
      return [{ [API_KEY_SCHEME]: [] }];
    case 'member':
    case 'user':
      return [{ [SESSION_SCHEME]: [] }];
    case 'api_key_or_member':
      return [{ [API_KEY_SCHEME]: [] }, { [SESSION_SCHEME]: [] }];
    case 'public':
    case 'human':
      return [];
    default:
      return assertNever(access);
  }
}

/** Recursively sorted object keys: the committed contract diffs cleanly and never reorders. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
