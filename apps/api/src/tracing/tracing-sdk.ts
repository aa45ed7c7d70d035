import type { ClientRequest, IncomingMessage } from 'node:http';
import { context, type Span } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { requestSpanNaming } from './spans';

/**
 * The OpenTelemetry SDK side of traces (`tracing.ts`): loaded only when traces are on, so a
 * process without them never holds the SDK, its exporter and instrumentations (issue 28, RSS).
 * Registers the provider (the AsyncLocalStorage context manager and the W3C trace-context and
 * baggage propagators) and patches `http` and `pg`; returns the provider, to stop it.
 */
export function startTracingSdk(): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'interlock-api' }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context and baggage propagators.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The metrics listener's scrapes are not traced (the API port answers /metrics 404 anyway).
        ignoreIncomingRequestHook: (req) => (req.url ?? '').split('?')[0] === '/metrics',
        requestHook: (span, request) =>
          isIncoming(request) ? nameServerSpan(span, request) : redactClientSpan(span),
      }),
      // Only statements of a traced request, job or delivery: the workers' polling stays out.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  return provider;
}

function isIncoming(request: ClientRequest | IncomingMessage): request is IncomingMessage {
  return (
    (request as IncomingMessage).headers !== undefined &&
    typeof (request as ClientRequest).setHeader !== 'function'
  );
}

/** URL attributes as the semantic conventions name them, old and stable. */
const URL_ATTRIBUTES = ['http.url', 'http.target', 'url.full', 'url.path', 'url.query'] as const;

/**
 * A request's span: named `METHOD /route/:template` when the path matches a declared route (the
 * instrumentation renames it from the RPC metadata when the response ends), and its URL
 * attributes redacted as the log redacts them (invitation tokens, API keys, credentials in the query).
 */
function nameServerSpan(span: Span, request: IncomingMessage): void {
  const url = request.url ?? '/';
  const naming = requestSpanNaming();
  const route = naming.route(request.method ?? 'GET', url);
  const metadata = getRPCMetadata(context.active());
  if (route !== undefined && metadata?.type === RPCType.HTTP) metadata.route = route;
  // `url.query` comes without its `?`: redacted as the query of a URL.
  rewriteUrlAttributes(span, (value, key) =>
    key === 'url.query' ? naming.redactUrl(`/?${value}`).slice(2) : naming.redactUrl(value),
  );
}

/** An outgoing request (a webhook delivery): its URL may carry the receiver's secret; keep its origin. */
function redactClientSpan(span: Span): void {
  rewriteUrlAttributes(span, (value, key) => {
    if (key === 'http.url' || key === 'url.full') {
      try {
        return `${new URL(value).origin}/[redacted]`;
      } catch {
        return '[redacted]';
      }
    }
    return '[redacted]';
  });
}

function rewriteUrlAttributes(span: Span, rewrite: (value: string, key: string) => string): void {
  const attributes = (span as unknown as { attributes?: Record<string, unknown> }).attributes;
  if (attributes === undefined) return;
  for (const key of URL_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value === 'string') span.setAttribute(key, rewrite(value, key));
  }
}
