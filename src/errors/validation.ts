import { z } from 'zod';
import { AppError } from './catalogue.js';

export interface Issue {
  message: string;
  path: (string | number)[];
}

/** zod issues in the contract's shape: `{message, path}` with string and number path elements. */
export const toIssues = (error: z.ZodError): Issue[] =>
  error.issues.map((i) => ({
    message: i.message,
    path: i.path.map((p) => (typeof p === 'number' ? p : String(p))),
  }));

export const invalidRequestData = (issues: Issue[]) => new AppError('invalidRequestData', { data: { issues } });

/** Parses with a zod schema or throws 422 invalidRequestData, prefixing paths (e.g. ['query']). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidRequestData(toIssues(result.error).map((i) => ({ ...i, path: [...prefix, ...i.path] })));
}
