import { z } from 'zod';
import { AppError } from './catalogue.js';

export interface Issue {
  message: string;
  path: (string | number)[];
}

/** zod issues in the contract's shape: `{message, path}` with string and number path elements. */
export const toIssues = (error: z.ZodError): Issue[] =>
  error.issues.flatMap((i) => {
    const path = i.path.map((p) => (typeof p === 'number' ? p : String(p)));
    // zod reports all unknown keys of an object as one issue at the object; name each key's own path.
    if (i.code === 'unrecognized_keys') return i.keys.map((key) => ({ message: `Unrecognized key: "${key}"`, path: [...path, key] }));
    return [{ message: i.message, path }];
  });

export const invalidRequestData = (issues: Issue[]) => new AppError('invalidRequestData', { data: { issues } });

/** A missing value says so plainly, instead of "expected string, received undefined". */
const requiredMessage = (issue: { code?: string; input?: unknown }) =>
  issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value') ? 'Required' : undefined;

/** Parses with a zod schema or throws 422 invalidRequestData, prefixing paths (e.g. ['query']). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(input, { error: requiredMessage });
  if (result.success) return result.data;
  throw invalidRequestData(toIssues(result.error).map((i) => ({ ...i, path: [...prefix, ...i.path] })));
}
