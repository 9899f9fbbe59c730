import { type RequestScope, setStatementTracer } from '@bo/db';
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

/**
 * OpenTelemetry spans: one per request (opened by the HTTP app, http-app.ts) and one per statement
 * sent in it (@bo/db's statement tracer), exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set. Without it the SDK and the exporter are never loaded and no span is made: the request
 * path tests one variable (`requestTracer()` is null) and a statement one more.
 */
let tracer: Tracer | null = null;
let running: { shutdown(): Promise<void> } | null = null;

/** The tracer of this process, or null when no traces are exported. */
export function requestTracer(): Tracer | null {
  return tracer;
}

/** the span name of a statement: its first keyword (`SELECT`, `INSERT`, `WITH`, …), bounded */
function statementName(text: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(text);
  return m?.[1] ? `db ${m[1].toUpperCase()}` : 'db statement';
}

/** query text kept on a span: statements carry placeholders ($1), never values */
const MAX_STATEMENT_TEXT = 2_048;

/** Opens the request's span (a server span, a root: no incoming trace context is read). */
export function startRequestSpan(t: Tracer, method: string, path: string, requestId: string): Span {
  return t.startSpan(method, {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': method, 'url.path': path, 'bo.request_id': requestId },
  });
}

/** Names and ends the request's span once its answer is known. */
export function endRequestSpan(span: Span, door: string, route: string, status: number): void {
  span.updateName(`${door} ${route}`);
  span.setAttribute('http.route', route);
  span.setAttribute('bo.door', door);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL (spans go to `<endpoint>/v1/traces`) */
  endpoint?: string;
  /** service.name of the spans (OTEL_SERVICE_NAME, default `business-operations`) */
  serviceName?: string;
}

/**
 * Starts exporting spans when an endpoint is given (once per process; a second call is a no-op).
 * Answers the stop, which sends what is left and unloads the tracer.
 */
export async function startTracing(opts: TracingOptions): Promise<() => Promise<void>> {
  if (!opts.endpoint || running) return async () => {};
  const [{ TracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const url = `${opts.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.serviceName ?? 'business-operations' }),
    // batched: a request never waits for the collector
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }), scheduledDelayMillis: 500 })],
  });
  const own = provider.getTracer('@bo/runtime');
  tracer = own;
  running = provider;
  setStatementTracer({
    start(text: string, scope: RequestScope) {
      const span = own.startSpan(
        statementName(text),
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'postgresql',
            'db.query.text': text.length > MAX_STATEMENT_TEXT ? text.slice(0, MAX_STATEMENT_TEXT) : text,
          },
        },
        trace.setSpan(ROOT_CONTEXT, scope.trace as Span),
      );
      return (err?: unknown) => {
        if (err) span.setStatus({ code: SpanStatusCode.ERROR, message: (err as { code?: string }).code ?? 'error' });
        span.end();
      };
    },
  });
  return async () => {
    if (running !== provider) return;
    tracer = null;
    running = null;
    setStatementTracer(null);
    await provider.shutdown();
  };
}
