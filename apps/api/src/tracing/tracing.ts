import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { markTracingEnabled } from './spans';

/**
 * OpenTelemetry traces (SPEC §8g), on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set and `OTEL_SDK_DISABLED` is not `true`: spans go
 * over OTLP/HTTP (JSON) to that collector, with the SDK's own environment variables honoured
 * (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`). Spans: each request (named by its route template, the
 * caller's W3C `traceparent` continued), each SQL statement made within a traced request or job,
 * each periodic job run, each webhook and notification delivery (the webhook's request carries
 * `traceparent`). Started by `startTracing` before anything loads `pg` or serves HTTP
 * (`tracing/start.ts`, the first import of `main.ts`), which loads the SDK side
 * (`tracing-sdk.ts`) only then; the rest of the service uses `spans.ts`. Off, nothing is patched
 * and the SDK is never loaded.
 */

let provider: NodeTracerProvider | undefined;

export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return (
    endpoint !== undefined &&
    endpoint.trim() !== '' &&
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true'
  );
}

/** Starts tracing when the environment asks for it; returns whether it did. Idempotent. */
export function startTracing(env: NodeJS.ProcessEnv): boolean {
  if (provider !== undefined) return true;
  if (!tracingWanted(env)) return false;
  // Loaded now, synchronously (before anything loads `pg` or `http`), and only now: without
  // traces the SDK is never loaded.
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  provider = sdk.startTracingSdk();
  markTracingEnabled(true);
  return true;
}

/** Flushes what is buffered and stops (after the app closed, before the process exits). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = undefined;
  markTracingEnabled(false);
  await stopping?.shutdown();
}
