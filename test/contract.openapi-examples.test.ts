import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { eventNames, eventTypes } from '../src/domain/workspace-events/workspace-event.schema.js';
import { buildOpenApiDocument, curlExample } from '../src/rest/reference/openapi.js';
import { routes } from '../src/rest/routes/index.js';

/**
 * Every operation carries examples (the route table's `examples`): a value for each path and query
 * parameter, the request body where one is taken, the success response, and a curl command. Each
 * example parses with the route's own zod schema and validates against the JSON Schema the
 * document publishes for it, so the reference never shows a request the API would refuse.
 */

type Json = Record<string, any>;
const doc = buildOpenApiDocument(routes) as Json;
const operationOf = (route: (typeof routes)[number]) => doc.paths[route.path][route.method.toLowerCase()] as Json;
const exampleValue = (examples: Json | undefined) => (examples ? Object.values(examples)[0]?.value : undefined);

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
const validates = (schema: Json, value: unknown) => {
  const rebased = JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/'));
  const ok = ajv.validate(rebased, value);
  return ok ? 'valid' : ajv.errorsText();
};

describe.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const operation = operationOf(route);

  it('has examples that parse with the route schemas', () => {
    if (route.params) expect(route.params.safeParse(route.examples.params).error?.issues).toBeUndefined();
    else expect(route.examples.params).toBeUndefined();
    if (route.query) expect(route.query.safeParse(route.examples.query).error?.issues).toBeUndefined();
    else expect(route.examples.query).toBeUndefined();
    if (route.body) expect(route.body.safeParse(route.examples.body).error?.issues).toBeUndefined();
    else expect(route.examples.body).toBeUndefined();
    expect(route.response.schema.safeParse(route.examples.response).error?.issues).toBeUndefined();
  });

  it('puts them in the document: every parameter, the body and the success response, each valid against its published schema', () => {
    for (const parameter of (operation.parameters ?? []) as Json[]) {
      const value = exampleValue(parameter.examples);
      expect(value, `${parameter.in} parameter ${parameter.name}`).toBeDefined();
      expect(typeof value).toBe('string');
    }
    const body = operation.requestBody?.content['application/json'];
    if (route.body) {
      expect(exampleValue(body.examples)).toEqual(route.examples.body);
      expect(validates(body.schema, route.examples.body)).toBe('valid');
    }
    const documented = operation.responses[String(route.response.status)];
    // A 204 documents no content, and its example is no body.
    if (route.response.status === 204) {
      expect(documented.content).toBeUndefined();
      expect(route.examples.response).toBeUndefined();
      return;
    }
    // A binary answer documents its media type; its example is an address that shows one (a PNG)
    // or the text itself (a CSV).
    const binary = route.response.binary;
    if (binary) {
      const example = 'exampleUrl' in binary ? { externalValue: binary.exampleUrl } : { value: binary.exampleText };
      expect(documented.content).toEqual({ [binary.mediaType]: { schema: { type: 'string', format: 'binary' }, examples: { example } } });
      return;
    }
    const success = documented.content['application/json'];
    expect(exampleValue(success.examples)).toEqual(route.examples.response);
    expect(validates(success.schema, route.examples.response)).toBe('valid');
  });

  it('has a curl command that calls the operation with the examples', () => {
    const samples = operation['x-codeSamples'] as Json[];
    expect(samples).toEqual([{ lang: 'Shell', label: 'curl', source: curlExample(route) }]);
    const [first, ...rest] = samples[0].source.split(' \\\n');
    expect(first).toMatch(new RegExp(`^curl${route.method === 'GET' ? '' : ` -X ${route.method}`} 'http://localhost:4000/v1/[^']+'$`));
    expect(rest[0]).toBe('  -H "Authorization: Bearer $TOKEN"');
    if (route.body) expect(rest.slice(1)).toEqual([`  -H 'Content-Type: application/json'`, `  -d '${JSON.stringify(route.examples.body)}'`]);
    else expect(rest).toHaveLength(1);
    const url = new URL(/'([^']+)'/.exec(first)![1]);
    const template = new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}$`);
    expect(url.pathname).toMatch(template);
    expect(Object.fromEntries(url.searchParams)).toEqual(route.examples.query ?? {});
  });
});

it('the document says how to get a token and links to GraphiQL and the script-free reference', () => {
  const description = doc.info.description as string;
  expect(description).toContain('## Getting a token');
  expect(description).toContain('`npm start` prints the demo workspace');
  expect(description).toContain('npm run --silent cli -- workspace create');
  expect(description).toContain('npm run --silent cli -- token create');
  for (const scheme of ['developerAccessToken', 'tokenInSearchParams', 'bearerAuth']) expect(description).toContain(`\`${scheme}\``);
  expect(description).toContain('[GraphiQL](/graphql)');
  expect(description).toContain('[/docs/static](/docs/static)');
});

describe('webhooks: what the service sends receivers', () => {
  const webhooks = doc.webhooks as Record<string, Json>;
  const requestOf = (name: string) => webhooks[name]!.post.requestBody.content['application/json'] as Json;

  it('lists every event type of the EventType enum, the test ping and the flows\' custom event, and nothing else', () => {
    expect(Object.keys(webhooks).sort()).toEqual([...eventTypes, 'ping', 'flowCustomEvent'].sort());
    expect(doc.components.schemas.EventType.enum).toEqual([...eventTypes]);
  });

  it.each(Object.keys(doc.webhooks as Json))('%s: one example, valid against its published schema, which refuses a field it does not list', (name) => {
    const { schema, examples } = requestOf(name);
    expect(Object.keys(examples)).toEqual(['example']);
    const example = exampleValue(examples) as Json;
    expect(validates(schema, example)).toBe('valid');
    expect(validates(schema, { ...example, extra: true })).not.toBe('valid');
    if (name in eventNames) expect(example.event).toBe(eventNames[name as keyof typeof eventNames]);
  });

  it('signed requests describe the Standard Webhooks headers and the retry schedule; the flow event is unsigned', () => {
    for (const type of [...eventTypes, 'ping']) {
      const post = webhooks[type]!.post;
      const names = (post.parameters as Json[]).map((p) => doc.components.parameters[p.$ref.split('/').pop()]);
      expect(names.map((p: Json) => [p.name, p.in, p.required]), type).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(post.responses).sort(), type).toEqual(['2XX', '410', 'default']);
      if (type !== 'contactReferredANewContact' && type !== 'contactReferredExistingContact') {
        expect(post.description, type).toContain('at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 tries');
      }
    }
    const flow = webhooks.flowCustomEvent.post;
    expect(flow.parameters).toBeUndefined();
    expect(flow.description).toContain('unsigned');
    expect(flow.description).toContain('5 tries in all');
  });
});

