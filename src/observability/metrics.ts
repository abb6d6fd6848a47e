import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; the app exposes it at GET /metrics. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests by route, method and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by route and method',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const dbStatements = new Counter({
  name: 'db_statements_total',
  help: 'SQL statements executed',
  labelNames: ['engine'] as const,
  registers: [registry],
});

export const connectionsRefused = new Counter({
  name: 'http_connections_refused_total',
  help: 'Connections answered 503 at once because the process had MAX_CONNECTIONS open',
  registers: [registry],
});

/** Webhook and dev events by channel and what became of them (stored, duplicate, unknownAccount, ignored). */
export const channelEvents = new Counter({
  name: 'channel_events_total',
  help: 'Events received by webhooks and dev events, by channel, source and outcome (stored, duplicate, unknownAccount, ignored)',
  labelNames: ['channel', 'source', 'outcome'] as const,
  registers: [registry],
});

/** GraphQL operations executed, by executor: compiled by graphql-jit, or run by graphql-js (too large to compile quickly, or a recursive input variable). */
export const graphqlExecutions = new Counter({
  name: 'graphql_executions_total',
  help: 'GraphQL operations executed, by executor (jit: compiled by graphql-jit; graphql-js: too many fields to compile quickly, or a recursive input variable)',
  labelNames: ['executor'] as const,
  registers: [registry],
});
