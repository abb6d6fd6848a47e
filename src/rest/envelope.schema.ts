import { z } from 'zod';
import { errorCatalogue, type ErrorCode } from '../errors/catalogue.js';

/**
 * The contract's error envelope as zod schemas, for the OpenAPI document (and the contract test
 * that checks real responses against it). Codes and statuses come from the one catalogue, so a
 * code added there shows up here without anyone remembering to.
 */
export const issuePathElementSchema = z
  .union([z.string(), z.number(), z.object({ key: z.union([z.string(), z.number()]) })])
  .meta({ id: 'IssuePathElement', description: 'A string, a number, or an object with a required `key`' });

export const issueSchema = z
  .object({
    message: z.string(),
    path: z.array(issuePathElementSchema).meta({ description: 'Where the input failed: first `params`, `query` or `body`, then the field path' }),
  })
  .meta({ id: 'ValidationIssue' });

const envelopeFields = {
  defined: z.boolean().meta({ description: 'true for the codes of the contract, false for HTTP-level failures it does not list' }),
  code: z.string(),
  status: z.number().int().meta({ description: 'Equal to the HTTP status' }),
  message: z.string(),
  data: z.unknown().optional().meta({ description: 'Details; the shape depends on the code' }),
};

/** Any error body: the shape every error response shares (and what an undefined error looks like). */
export const errorEnvelopeSchema = z.object(envelopeFields).meta({ id: 'ErrorEnvelope' });

const issuesDataSchema = z.object({ issues: z.array(issueSchema).min(1) });

/** `notFound` -> `NotFoundError`, `INVALID_CHATBOT_TOKEN` -> `InvalidChatbotTokenError`, `businessError` -> `BusinessError`. */
const componentName = (code: ErrorCode) => {
  const words = code.includes('_') || code === code.toUpperCase() ? code.toLowerCase().split('_') : [code];
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return name.endsWith('Error') ? name : `${name}Error`;
};

/**
 * The body of one code: its status, `defined` and, for the contract's (defined) codes, its default
 * message as a constant, since those always carry it (details go in `data`). Undefined codes may
 * word their message (`PUT is not allowed here; use GET, POST`).
 */
function codeSchema(code: ErrorCode, id: string): z.ZodType {
  const entry = errorCatalogue[code];
  return z
    .object({
      defined: z.literal(entry.defined),
      code: z.literal(code),
      status: z.literal(entry.status).meta({ description: 'Equal to the HTTP status' }),
      message: entry.defined ? z.literal(entry.message) : z.string().meta({ description: `Default: ${entry.message}` }),
      data: code === 'invalidRequestData' ? issuesDataSchema : envelopeFields.data,
    })
    .meta({ id, description: `\`${code}\` (${entry.defined ? 'defined' : 'undefined'}): ${entry.message}` });
}

/** 422 invalidRequestData: `data.issues` says which inputs failed and why. */
export const invalidRequestDataErrorSchema = codeSchema('invalidRequestData', componentName('invalidRequestData'));

/** Codes the REST routes can answer (GraphQL-only codes stay out of the OpenAPI document). */
const restCodes = (Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => !('graphqlOnly' in errorCatalogue[code]));

const codesWithStatus = (status: number) => restCodes.filter((code) => errorCatalogue[code].status === status);

const describeCodes = (codes: ErrorCode[]) =>
  codes.map((c) => `\`${c}\` (${errorCatalogue[c].defined ? 'defined' : 'undefined'}): ${errorCatalogue[c].message}`).join('; ');

/** One status's body: its code's schema, or a union of its codes' schemas (each named `<Code>Error`). */
function buildErrorSchema(status: number): z.ZodType {
  const codes = codesWithStatus(status);
  if (codes.length === 1) return codeSchema(codes[0], `Error${status}`);
  const [first, ...rest] = codes.map((c) => (c === 'invalidRequestData' ? invalidRequestDataErrorSchema : codeSchema(c, componentName(c))));
  return z.union([first, ...rest]).meta({ id: `Error${status}`, description: describeCodes(codes) });
}

/** Statuses the REST routes' codes can produce. */
export const errorStatuses = [...new Set(restCodes.map((code) => errorCatalogue[code].status))].sort((a, b) => a - b);

/**
 * The body of an error response of each status: the envelope with that status and one of the
 * catalogue's codes for it, each with its own constant message when it is a contract code.
 */
export const errorSchemas: ReadonlyMap<number, z.ZodType> = new Map(errorStatuses.map((s) => [s, buildErrorSchema(s)]));
