import SchemaBuilder from '@pothos/core';
import { Kind } from 'graphql';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { AppError } from '../errors/catalogue.js';
import type { GraphQLContext } from './context.js';

/**
 * The Pothos builder: plugins and scalars only; types live in src/graphql/types, one per file.
 * Validation failures become the same 422 invalidRequestData as on REST.
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
}>({
  plugins: [RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  validation: {
    validationError: (result) =>
      new AppError('invalidRequestData', {
        data: {
          issues: result.issues.map((i) => ({
            message: i.message,
            path: (i.path ?? []).map((p) => {
              const key = typeof p === 'object' && p !== null && 'key' in p ? p.key : p;
              return typeof key === 'number' ? key : String(key);
            }),
          })),
        },
      }),
  },
});

builder.scalarType('DateTime', {
  description: 'ISO 8601 date-time in UTC, e.g. 2026-11-22T10:00:00.000Z',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw new AppError('invalidRequestData', { message: 'DateTime must be an ISO 8601 string' });
    return v;
  },
});

/** `{ success: true }`, as the REST write endpoints answer. */
export const SuccessType = builder.objectRef<{ success: boolean }>('Success').implement({
  fields: (t) => ({ success: t.exposeBoolean('success') }),
});

builder.scalarType('SafeInt', {
  description: 'A whole number from -(2^53-1) to 2^53-1 (page numbers go beyond GraphQL Int)',
  serialize: (v) => v,
  parseValue: (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new AppError('invalidRequestData', { message: 'SafeInt must be a whole number up to 9007199254740991' });
    return v;
  },
  parseLiteral: (ast) => {
    const n = ast.kind === Kind.INT ? Number(ast.value) : NaN;
    if (!Number.isSafeInteger(n)) throw new AppError('invalidRequestData', { message: 'SafeInt must be a whole number up to 9007199254740991' });
    return n;
  },
});

builder.queryType({});
builder.mutationType({});
