// The dashboard's client for the Interlock API. `src/generated/**` is produced from
// contract/openapi.json by tools/scripts/codegen.mjs and never edited by hand; `src/lib/**` is
// the small hand-written layer (errors, the organisation header). The browser sends its session cookie (same origin);
// no API key is ever used here.
export * from './generated';
// The generated functions' one client instance (its configuration: tests give relative URLs an origin).
export { client } from './generated/client.gen';
export { ApiError, isApiError } from './lib/api-error';
export { call } from './lib/call';
export { sendRequestsThrough } from './lib/fetch';
export {
  eventStreamUrl,
  ORGANISATION_HEADER,
  ORGANISATION_QUERY,
  sendOrganisationWith,
} from './lib/organisation';
