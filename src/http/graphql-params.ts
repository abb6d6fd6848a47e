import { AppError } from '../errors/catalogue.js';
import { parseJson, readJsonBody, type JsonLimits } from './body.js';
import type { Incoming } from './exchange.js';

/**
 * The GraphQL-over-HTTP parameters of a request to /graphql, read as REST reads its input, so both
 * say the same thing about the same mistake: a POST body must be JSON (`application/json` or
 * `+json`; anything else is 415 unsupportedMediaType, as on REST) that parses (400 malformedJson,
 * with the parser's `data.reason`), within BODY_LIMIT_BYTES (413); a GET takes `query`,
 * `operationName`, `variables` and `extensions` from the URL, the last two as JSON (400
 * malformedJson naming `data.parameter`); JSON nested deeper than JSON_MAX_DEPTH is 422. Yoga then checks the parameters' shape (a string
 * `query`, object `variables`, no other fields, no batches): its refusals become 400 badRequest
 * (see yoga-options.ts).
 */
export async function readGraphQLParams(request: Incoming, limits: JsonLimits): Promise<unknown> {
  if (request.method === 'GET') {
    const params = new URLSearchParams(request.search);
    return {
      query: params.get('query') || undefined,
      operationName: params.get('operationName') || undefined,
      variables: jsonParameter(params, 'variables', limits.depth),
      extensions: jsonParameter(params, 'extensions', limits.depth),
    };
  }
  const body = await readJsonBody(request, limits);
  if (body === undefined) throw new AppError('badRequest', { message: 'POST /graphql needs a JSON body: {"query": "..."}' });
  return body;
}

function jsonParameter(params: URLSearchParams, name: string, maxDepth: number): unknown {
  const text = params.get(name);
  if (!text) return undefined;
  return parseJson(text, maxDepth, { message: `The ${name} parameter is not valid JSON`, data: { parameter: name }, path: name });
}
