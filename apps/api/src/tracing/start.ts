import { tracingEnvironment } from '../config/app-config';
import { startTracing } from './tracing';

// The first import of main.ts: tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) patches `http`
// and `pg` before anything else loads them.
startTracing(tracingEnvironment());
