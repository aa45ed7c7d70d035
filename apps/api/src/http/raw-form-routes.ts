/**
 * The routes whose callers sign the exact bytes of a form body (Slack's interactivity requests,
 * `application/x-www-form-urlencoded`, signed with the app's signing secret): for these alone
 * the front door (either adapter's) keeps such a body's bytes, under the same 1 MiB cap, in the
 * request's state (`rawBody`) instead of refusing it with 415; the handler verifies and parses
 * them itself. Every other non-JSON body is refused as before.
 */
const RAW_FORM_PATHS = [/^\/api\/slack\/interactions\/[^/]+$/];

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

export function keepsRawForm(path: string, contentType: string | undefined): boolean {
  return (
    contentType !== undefined &&
    FORM_TYPE.test(contentType) &&
    RAW_FORM_PATHS.some((p) => p.test(path))
  );
}
