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

/** 422 invalidRequestData: `data.issues` says which inputs failed and why. */
export const invalidRequestDataErrorSchema = z
  .object({
    ...envelopeFields,
    defined: z.literal(true),
    code: z.literal('invalidRequestData'),
    status: z.literal(422),
    data: z.object({ issues: z.array(issueSchema).min(1) }),
  })
  .meta({ id: 'InvalidRequestDataError' });

const codesWithStatus = (status: number) =>
  (Object.keys(errorCatalogue) as ErrorCode[]).filter((code) => errorCatalogue[code].status === status);

const describeCodes = (codes: ErrorCode[]) =>
  codes.map((c) => `\`${c}\` (${errorCatalogue[c].defined ? 'defined' : 'undefined'}): ${errorCatalogue[c].message}`).join('; ');

function buildErrorSchema(status: number): z.ZodType {
  const codes = codesWithStatus(status);
  const others = codes.filter((c) => c !== 'invalidRequestData') as [ErrorCode, ...ErrorCode[]];
  const envelope = z
    .object({ ...envelopeFields, code: z.enum(others), status: z.literal(status) })
    .meta({ id: codes.includes('invalidRequestData') ? 'ValidationError' : `Error${status}`, description: describeCodes(others) });
  if (!codes.includes('invalidRequestData')) return envelope;
  return z.union([invalidRequestDataErrorSchema, envelope]).meta({ id: `Error${status}`, description: describeCodes(codes) });
}

/** Statuses the catalogue can produce. */
export const errorStatuses = [...new Set(Object.values(errorCatalogue).map((e) => e.status))].sort((a, b) => a - b);

/**
 * The body of an error response of each status: the envelope with that status and one of the
 * catalogue's codes for it. 422 tells invalidRequestData (with its issues) from validation.
 */
export const errorSchemas: ReadonlyMap<number, z.ZodType> = new Map(errorStatuses.map((s) => [s, buildErrorSchema(s)]));
