import type { Route } from './route.js';

/** Placeholder until the OpenAPI generator lands. */
export function buildOpenApiDocument(routes: Route[]): unknown {
  return { openapi: '3.1.0', info: { title: 'Messaging API', version: '0.0.1' }, paths: Object.fromEntries(routes.map((r) => [r.path, {}])) };
}
