import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RequestOptions, TestApp, TestResponse } from './harness.js';

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;
const DOC_ID = 'urn:messaging-api:openapi';

const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks real responses against the served OpenAPI document: the status must be one the operation
 * documents, the body must validate against that response's schema (ajv, JSON Schema 2020-12 with
 * formats), and the headers it marks required must be there. A route the document does not know
 * is a failure too, so document and behaviour cannot drift apart.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];
  /** Every (operationId, status) a test produced, for coverage assertions. */
  readonly seen = new Set<string>();

  constructor(readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
    // As the router matches: a literal segment before a parameter at the same position
    // (/v1/contacts/bulk/tags before /v1/contacts/{identifier}/tags).
    const shape = (template: string) => template.split('/').map((seg) => (seg.startsWith('{') ? '1' : '0')).join('');
    this.templates = Object.keys(doc.paths)
      .sort((a, b) => shape(a).localeCompare(shape(b)))
      .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`) }));
  }

  /**
   * The operation of the most specific template that matches the path; templates of one shape
   * (GET /v1/tags/{idOrName}, PUT /v1/tags/{id}) are one path for the router, so any of them may hold the method.
   */
  operation(method: string, pathname: string): { template: string; op: Json } | null {
    const first = this.templates.find((t) => t.pattern.test(pathname));
    if (!first) return null;
    const same = (t: string) => t.replace(/\{\w+\}/g, '{}') === first.template.replace(/\{\w+\}/g, '{}');
    const found = this.templates.find((t) => same(t.template) && this.doc.paths[t.template][method.toLowerCase()]);
    return found ? { template: found.template, op: this.doc.paths[found.template][method.toLowerCase()] } : null;
  }

  /** Throws with a readable message when the response is not what the document promises. */
  check(method: string, path: string, res: TestResponse): void {
    const pathname = new URL(path, 'http://x').pathname;
    const found = this.operation(method, pathname);
    if (!found) throw new Error(`Contract: ${method} ${pathname} is not in the OpenAPI document`);
    const { template, op } = found;
    const key = String(res.status);
    let response = op.responses[key];
    let schemaPointer = pointer('paths', template, method.toLowerCase(), 'responses', key);
    if (!response) throw new Error(`Contract: ${op.operationId} answered ${res.status}, which the document does not list`);
    if (response.$ref) {
      const name = response.$ref.split('/').pop();
      response = this.doc.components.responses[name];
      schemaPointer = pointer('components', 'responses', name);
    }
    if (!response.content) {
      // A response documented without content (204) has no body.
      if (res.text !== '') throw new Error(`Contract: ${op.operationId} ${res.status} documents no body, but one came: ${res.text.slice(0, 200)}`);
      this.seen.add(`${op.operationId} ${res.status}`);
      return;
    }
    if (!response.content['application/json']) {
      // A binary answer (a PNG): the media type must be the one documented; its bytes are not JSON to validate.
      const mediaType = res.headers.get('content-type')?.split(';')[0]?.trim();
      if (!mediaType || !Object.hasOwn(response.content, mediaType)) {
        throw new Error(`Contract: ${op.operationId} ${res.status} answered ${mediaType ?? 'no content type'}, the document says ${Object.keys(response.content).join(', ')}`);
      }
      this.seen.add(`${op.operationId} ${res.status}`);
      return;
    }
    const validator = this.validator(`${schemaPointer}/content/application~1json/schema`);
    if (!validator(res.body)) {
      throw new Error(
        `Contract: ${op.operationId} ${res.status} body does not match the document:\n${this.ajv.errorsText(validator.errors, { separator: '\n' })}\nbody: ${JSON.stringify(res.body).slice(0, 2000)}`,
      );
    }
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const resolved = header.$ref ? this.doc.components.headers[header.$ref.split('/').pop()] : header;
      if (resolved.required && !res.headers.has(name)) throw new Error(`Contract: ${op.operationId} ${res.status} lacks the ${name} header`);
    }
    this.seen.add(`${op.operationId} ${res.status}`);
  }

  private validator(schemaPointer: string): ValidateFunction {
    let v = this.validators.get(schemaPointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${DOC_ID}#/${schemaPointer}` });
      this.validators.set(schemaPointer, v);
    }
    return v;
  }
}

/**
 * The test app with every /v1 response checked against the OpenAPI document it serves. REST tests
 * use `api.request` instead of `t.request`, so each response they assert is also a contract check.
 */
export async function contractClient(t: TestApp) {
  const res = await t.request('GET', '/v1/openapi.json');
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  const checker = new ContractChecker(res.body);
  return {
    checker,
    request: async <T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>> => {
      const response = await t.request<T>(method, path, options);
      checker.check(method, path, response);
      return response;
    },
  };
}
