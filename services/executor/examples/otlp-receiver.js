#!/usr/bin/env node
/**
 * A tiny OTLP/HTTP (JSON) receiver that prints each span it gets, one line a span, to look at
 * the executor's traces locally without a collector:
 *
 *   node services/executor/examples/otlp-receiver.js            # listens on 127.0.0.1:4318
 *   OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/json \
 *     OTEL_BSP_SCHEDULE_DELAY=500 npm start
 *
 * Each line: trace id, span id, parent span id, duration, span name, its a2a.* attributes and
 * state events. Only JSON exports are understood (set OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
 */
'use strict';
const http = require('node:http');

const port = Number(process.env.PORT ?? 4318);

/** An OTLP AnyValue as plain JS. */
const value = (v) => v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue ?? JSON.stringify(v);
const attrs = (list) => Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      if (!String(req.headers['content-type']).includes('json')) {
        console.error('not JSON: set OTEL_EXPORTER_OTLP_PROTOCOL=http/json');
        return res.writeHead(415).end();
      }
      for (const resource of JSON.parse(body).resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            const ms = (Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6).toFixed(1);
            const a2a = Object.fromEntries(Object.entries(attrs(span.attributes)).filter(([k]) => k.startsWith('a2a.') || k.startsWith('http.')));
            const states = (span.events ?? []).map((e) => attrs(e.attributes)['a2a.task.state']).filter(Boolean);
            console.log(
              `${span.traceId} ${span.spanId} <- ${span.parentSpanId || '(root)'} ${ms.padStart(8)} ms  ${span.name}  ${JSON.stringify(a2a)}${states.length ? `  states: ${states.join(' → ')}` : ''}`,
            );
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  })
  .listen(port, '127.0.0.1', () => console.error(`OTLP/HTTP JSON receiver on http://127.0.0.1:${port} (POST /v1/traces)`));
