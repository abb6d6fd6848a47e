import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { allSchemes, type AuthScheme } from '../../domain/auth/principal.js';
import { externalEventTries } from '../../domain/flows/flow.schema.js';
import { outboundEvents, type OutboundEvent } from '../../domain/webhooks/webhook.operations.js';
import { errorEnvelopeSchema, errorSchemas } from '../envelope.schema.js';
import type { Route } from '../route.js';

/**
 * The OpenAPI 3.1 document of the /v1 contract, generated from the route table and the same zod
 * schemas that validate requests and shape responses: a field added to a schema is documented the
 * moment it is enforced. Schemas with a zod `.meta({ id })` become named components; everything
 * else is inlined where it is used.
 */

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

export const OPENAPI_VERSION = '3.1.0';
export const API_VERSION = '0.0.1';

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'A user access token (`musr_...`) in `Authorization: Bearer <ACCESS_TOKEN>`.',
  },
  developerAccessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A workspace API token (`mdev_...`) in `Authorization: Bearer <ACCESS_TOKEN>`.',
  },
  tokenInSearchParams: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A workspace API token (`mdev_...`) in the `token` query parameter. User access tokens are not accepted here.',
  },
} as const satisfies Record<AuthScheme, JsonSchema>;

const headers = {
  'X-Request-Id': { description: "The request's id (the client's own when it sent a valid one); quoted in logs.", required: true, schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'The Bearer challenge.', required: true, schema: { type: 'string' } },
  Location: { description: 'Where the created record can be read.', required: true, schema: { type: 'string' } },
} as const;

/**
 * The Standard Webhooks headers of every signed request this service sends. The examples sign the
 * tagApplied example (event id 1204) with the example secret of POST /v1/webhooks.
 */
const webhookParameters = {
  WebhookId: {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id: the same on every attempt and for every webhook the event goes to, so receivers de-duplicate on it (a test ping has an id of its own).",
    schema: { type: 'string', pattern: '^\\d+$' },
    example: '1204',
  },
  WebhookTimestamp: {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Seconds since the epoch when the attempt was signed (each attempt anew); `standardwebhooks` refuses one more than 5 minutes from its clock.',
    schema: { type: 'string', pattern: '^\\d+$' },
    example: '1795773900',
  },
  WebhookSignature: {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` (the body exactly as sent), keyed with the base64-decoded part of the secret after `whsec_`. For 24 hours after a rotation a second `v1,` signature, with the previous secret, follows after a space.',
    schema: { type: 'string' },
    example: 'v1,phbwHhKg8BFA15punpyBg4y7xQY6Cediiq/7Li/f3JY=',
  },
} as const;

const signedResponses = {
  '2XX': { description: 'Received: the delivery succeeded.' },
  '410': { description: 'Gone: the webhook is disabled at once, and the delivery has failed.' },
  default: { description: 'Any other answer (a 3xx included), a time-out or a refused connection: a failed attempt, tried again on the schedule.' },
};
const unsignedResponses = {
  '2XX': { description: 'Received.' },
  default: { description: `Any other answer, a time-out or a refused connection: the job is tried again, ${externalEventTries}.` },
};

/** The document's `webhooks`: each request this service sends to a receiver, by name. */
function webhooksOf(collector: SchemaCollector, events: readonly OutboundEvent[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    events.map((e) => [
      e.name,
      {
        post: {
          summary: e.summary,
          description: e.description,
          ...(e.signed ? { parameters: Object.keys(webhookParameters).map((name) => ({ $ref: `#/components/parameters/${name}` })) } : {}),
          requestBody: { required: true, content: { 'application/json': { schema: collector.convert(e.body, 'output'), examples: { example: { value: e.example } } } } },
          responses: e.signed ? signedResponses : unsignedResponses,
        },
      },
    ]),
  );
}

const headerRef = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });
const commonHeaders = () => ({
  'X-Request-Id': headerRef('X-Request-Id'),
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
});
const extraErrorHeaders: Record<number, (keyof typeof headers)[]> = { 401: ['WWW-Authenticate'], 429: ['Retry-After'] };

/** Name of the reusable response of an error status: `Unauthorized`, `UnprocessableEntity`, ... */
export const errorResponseName = (status: number) => (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z]/g, '');

/**
 * Turns zod schemas into JSON Schema 2020-12 (the dialect of OpenAPI 3.1) and collects every
 * schema with an id as a component. An id whose input and output forms differ (a transform or a
 * default) gets a second component with an `Input` suffix, so neither form is misdescribed.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: tidy }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
    const defs = $defs ?? {};
    const names = new Map(Object.keys(defs).map((id) => [id, id]));

    // Rename conflicting definitions until every name is either new or the same schema as before.
    for (let changed = true; changed; ) {
      changed = false;
      for (const [id, def] of Object.entries(defs)) {
        const name = names.get(id)!;
        const existing = this.components[name];
        if (existing === undefined || same(existing, rewriteRefs(def, names))) continue;
        if (name !== id) throw new Error(`OpenAPI: two different schemas are both named "${id}"`);
        names.set(id, `${id}${io === 'input' ? 'Input' : 'Output'}`);
        changed = true;
      }
    }
    for (const [id, def] of Object.entries(defs)) this.components[names.get(id)!] = rewriteRefs(def, names);
    return rewriteRefs(root, names);
  }
}

/** Drops zod's long date-time regex where `format: date-time` already says it. */
function tidy({ jsonSchema }: { jsonSchema: JsonSchema }) {
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function rewriteRefs<T>(value: T, names: Map<string, string>): T {
  return JSON.parse(JSON.stringify(value), (key, v) =>
    key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${names.get(v.slice(8)) ?? v.slice(8)}` : v,
  ) as T;
}

/**
 * One OpenAPI parameter per property of a params or query schema. The schema shown is the parsed
 * value (output form: `page` is an integer 1..2^53-1 with its default); whether it is required comes
 * from the input form (a parameter with a default may be left out).
 */
function parametersOf(
  collector: SchemaCollector,
  schema: z.ZodType | undefined,
  location: 'path' | 'query',
  examples: Record<string, unknown> = {},
): JsonSchema[] {
  if (!schema) return [];
  const output = collector.convert(schema, 'output') as { properties?: Record<string, JsonSchema> };
  const input = collector.convert(schema, 'input') as { required?: string[] };
  return Object.entries(output.properties ?? {}).map(([name, prop]) => {
    const { description, ...propSchema } = prop;
    return {
      name,
      in: location,
      required: location === 'path' || (input.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propSchema,
      ...(examples[name] !== undefined ? { examples: { example: { value: examples[name] } } } : {}),
    };
  });
}

/**
 * The error statuses an operation can answer, from the route's shape: every route 401, 422 (strict
 * query parameters), 429 and 500; 403 where a rule can refuse the caller; 400 where it takes input
 * (400 `businessError`, and malformed JSON where a body is read); 413 and 415 where a body is read
 * (the writes, and a DELETE with a body); 404 where a path names a record. Plus the route's own
 * additions (`errors`): those the contract lists beyond these (404 on GET /v1/tags), and a record a
 * body names (an inboxId, bulk ids).
 */
export function documentedErrorStatuses(route: Route): number[] {
  const statuses = new Set([...route.errors, 401, 422, 429, 500]);
  // 403 whenever a rule can refuse the call: a scheme, a write on a read-only token, a missing scope.
  // Reading the presented token itself (GET /v1/token: any scheme, a read, no scope) cannot be refused.
  if (route.access.schemes || route.access.action !== 'read' || route.access.scope !== null) statuses.add(403);
  const readsBody = route.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(route.method);
  if (readsBody || route.params || route.query) statuses.add(400);
  if (readsBody) for (const s of [413, 415]) statuses.add(s);
  if (route.params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

const schemeList = (schemes: readonly AuthScheme[]) => schemes.map((s) => `\`${s}\``).join(', ');

function operationDescription(route: Route, hasQuery: boolean): string {
  const schemes = route.access.schemes ?? allSchemes;
  const lines = [
    `Accepts ${schemeList(schemes)}${route.access.schemes ? ' only; a user access token gets 403 `FORBIDDEN`' : ''}.`,
    `${route.access.scope === null ? 'Needs no scope: any token may call it' : `Needs the \`${route.access.scope}\` scope`}${route.access.action === 'read' ? '' : ' and a full-permission token (read-only tokens get 403 `FORBIDDEN`)'}.`,
  ];
  if (route.access.action === 'write') lines.push('A write: 403 `trialExpired` after the trial, 403 `macLimitReached` at the monthly-active-contact limit.');
  lines.push(
    hasQuery
      ? 'Unknown or repeated query parameters are 422 `invalidRequestData` (`token` is authentication, not input).'
      : 'Takes no query parameters besides `token`; any other is 422 `invalidRequestData`.',
  );
  if (route.body) lines.push('Unknown body fields are 422 `invalidRequestData`, with the path of each.');
  return lines.join('\n\n');
}

/** Where the examples' curl commands send requests: the default `npm start` address. */
export const EXAMPLE_BASE_URL = 'http://localhost:4000';

/** A path parameter as it goes in the URL (`@` and `:` may stay as they are in a path segment). */
const pathSegment = (value: string) => encodeURIComponent(value).replace(/%40/g, '@').replace(/%3A/g, ':');

/** The route's path with the example path parameters filled in, plus the example query string. */
export function exampleUrl(route: Route): string {
  const params = (route.examples.params ?? {}) as Record<string, string>;
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(params[name] ?? `{${name}}`));
  const query = new URLSearchParams(Object.entries((route.examples.query ?? {}) as Record<string, string>)).toString();
  return `${EXAMPLE_BASE_URL}${path}${query ? `?${query}` : ''}`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command that runs the operation with its examples; `$TOKEN` holds a token. */
export function curlExample(route: Route): string {
  const lines = [`curl${route.method === 'GET' ? '' : ` -X ${route.method}`} ${shellQuote(exampleUrl(route))}`, `  -H "Authorization: Bearer $TOKEN"`];
  if (route.body) lines.push(`  -H 'Content-Type: application/json'`, `  -d ${shellQuote(JSON.stringify(route.examples.body))}`);
  return lines.join(' \\\n');
}

const gettingATokenSection = [
  '## Getting a token',
  'Every operation needs a token of the workspace it acts in, sent as `Authorization: Bearer <token>` (or, for workspace API tokens only, as `?token=<token>`). The curl examples read it from `$TOKEN`: `export TOKEN=mdev_...`.',
  '`npm start` prints the demo workspace\'s two tokens (a workspace API token `mdev_...` and a user access token `musr_...`) every time it starts. Tokens for other workspaces come from the operator CLI, shown once at creation: `npm run --silent cli -- workspace create --name "Acme" --json` makes a workspace with one token of each kind; `npm run --silent cli -- token create --workspace 1 --kind developer --json` makes another (`--kind user`, `--read-only`, `--scopes contacts,tags`).',
  'The three schemes: `developerAccessToken` (a workspace API token in the `Authorization` header), `tokenInSearchParams` (a workspace API token in `?token=`) and `bearerAuth` (a user access token in the `Authorization` header; never accepted in `?token=`).',
  'The same data is available over GraphQL: [GraphiQL](/graphql) opens an explorer with an example query. This reference is also available without scripts at [/docs/static](/docs/static); the machine-readable document is [/v1/openapi.json](/v1/openapi.json).',
];

export function buildOpenApiDocument(routes: Route[], events: readonly OutboundEvent[] = outboundEvents): JsonSchema {
  const collector = new SchemaCollector();
  const webhooks = webhooksOf(collector, events);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const usedErrorStatuses = new Set<number>();
  const tags: string[] = [];

  for (const route of routes) {
    if (!tags.includes(route.tag)) tags.push(route.tag);
    const { examples } = route;
    const parameters = [
      ...parametersOf(collector, route.params, 'path', examples.params as Record<string, unknown>),
      ...parametersOf(collector, route.query, 'query', examples.query as Record<string, unknown>),
    ];
    const responses: Record<string, JsonSchema> = {
      [String(route.response.status)]: {
        description: route.response.description,
        headers: route.response.location ? { ...commonHeaders(), Location: headerRef('Location') } : commonHeaders(),
        // A 204 has no body to describe.
        ...(route.response.status === 204
          ? {}
          : route.response.binary
            ? { content: { [route.response.binary.mediaType]: { schema: { type: 'string', format: 'binary' }, examples: { example: 'exampleUrl' in route.response.binary ? { externalValue: route.response.binary.exampleUrl } : { value: route.response.binary.exampleText } } } } }
            : { content: { 'application/json': { schema: collector.convert(route.response.schema, 'output'), examples: { example: { value: examples.response } } } } }),
      },
    };
    for (const status of documentedErrorStatuses(route)) {
      if (!errorSchemas.has(status)) throw new Error(`OpenAPI: ${route.operationId} lists ${status}, which no error code has`);
      usedErrorStatuses.add(status);
      responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
    }
    responses.default = { $ref: '#/components/responses/UndefinedError' };

    const operation: JsonSchema = {
      operationId: route.operationId,
      summary: route.summary,
      description: [route.description, operationDescription(route, route.query !== undefined)].filter(Boolean).join('\n\n'),
      tags: [route.tag],
      security: (route.access.schemes ?? allSchemes).map((s) => ({ [s]: [] })),
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              // A body the route's schema accepts leaving out (disable-bot's) is optional.
              required: !route.body.safeParse(undefined).success,
              content: { 'application/json': { schema: collector.convert(route.body, 'input'), examples: { example: { value: examples.body } } } },
            },
          }
        : {}),
      responses,
      'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: curlExample(route) }],
    };
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation;
  }

  const responses: Record<string, JsonSchema> = {};
  for (const status of [...usedErrorStatuses].sort((a, b) => a - b)) {
    const schema = errorSchemas.get(status)!;
    responses[errorResponseName(status)] = {
      description: `${STATUS_CODES[status]}: ${z.globalRegistry.get(schema)?.description ?? ''}`,
      headers: { ...commonHeaders(), ...Object.fromEntries((extraErrorHeaders[status] ?? []).map((h) => [h, headerRef(h)])) },
      content: { 'application/json': { schema: collector.convert(schema, 'output') } },
    };
  }
  responses.UndefinedError = {
    description: 'An undefined error (`defined: false`): an HTTP-level failure the contract does not list, at any status.',
    headers: commonHeaders(),
    content: { 'application/json': { schema: collector.convert(errorEnvelopeSchema, 'output') } },
  };

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Messaging API',
      version: API_VERSION,
      description: [
        'Workspace-scoped HTTP and JSON API of the customer-messaging automation service. Every request acts inside the one workspace its token belongs to.',
        'Every error body is the envelope `{defined, code, status, message, data?}`; 422 `invalidRequestData` lists `data.issues: [{message, path}]`.',
        'Identifiers are digit strings; timestamps are ISO 8601 UTC strings.',
        'What this service POSTs to receivers is under `webhooks`: the events webhooks are registered for (POST /v1/webhooks), signed with Standard Webhooks and retried on a schedule, the test ping, and the unsigned custom events of flows (POST /v1/external-webhooks).',
        ...gettingATokenSection,
      ].join('\n\n'),
    },
    // The same routes answer under both bases (src/rest/router.ts).
    servers: [
      { url: '/', description: 'This server: paths as documented (/v1/...)' },
      { url: '/api', description: 'The same routes under /api (/api/v1/...), for clients whose base URL ends in /api' },
    ],
    tags: tags.map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(collector.components).sort(([a], [b]) => a.localeCompare(b))),
      responses,
      headers,
      parameters: webhookParameters,
      securitySchemes,
    },
  };
}
