import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The service's side of tracing, on the OpenTelemetry API alone (no SDK is loaded by importing
 * this): spans for background work, the current trace for log lines and stored events. While
 * traces are off (`tracing.ts` not started) the API is a no-op: `inSpan` runs its work with a
 * span that records nothing.
 */

const TRACER = 'interlock';
let enabled = false;

/** How request spans are named and their URLs redacted, once the app is built (`TracingModule`). */
export interface RequestSpanNaming {
  /** The request's route template (`/api/interrupts/:id`), or undefined for a path no route declares. */
  route(method: string, url: string): string | undefined;
  /** The URL as the log would write it (`redactUrl`). */
  redactUrl(url: string): string;
}
/** Until the app is built: no route, and no URL at all. */
let naming: RequestSpanNaming = { route: () => undefined, redactUrl: () => '[redacted]' };

export function tracingEnabled(): boolean {
  return enabled;
}

/** Set by `startTracing` / `stopTracing`. */
export function markTracingEnabled(on: boolean): void {
  enabled = on;
}

/** How request spans get their route template and redacted URL; set once the app's routes are known. */
export function nameRequestSpans(by: RequestSpanNaming): void {
  naming = by;
}

export function requestSpanNaming(): RequestSpanNaming {
  return naming;
}

/**
 * Runs `work` in a span of its own, a root span unless `parent` (a W3C `traceparent`) names the
 * trace it continues: for background work (a job run, a delivery). The span records a thrown
 * error and ends when `work` settles.
 */
export function inSpan<T>(
  name: string,
  options: {
    attributes?: Record<string, string | number | boolean>;
    parent?: string | null;
    kind?: SpanKind;
  },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: options.parent })
    : ROOT_CONTEXT;
  return trace
    .getTracer(TRACER)
    .startActiveSpan(
      name,
      { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
      parent,
      async (span) => {
        try {
          return await work(span);
        } catch (error) {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
}

/**
 * The current span's W3C `traceparent` (to store with an event), when there is a trace — sampled
 * or not, so that what continues it keeps its sampling decision; null with traces off.
 */
export function currentTraceparent(): string | null {
  if (!enabled) return null;
  const span = trace.getActiveSpan();
  if (span === undefined || !isSpanContextValid(span.spanContext())) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The trace and span ids of the current span, for log lines (empty outside a trace). */
export function traceFields(): { traceId?: string; spanId?: string } {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}
