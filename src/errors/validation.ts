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

/** More issues than this are summarised in one last issue: a huge bad body must not get a huge answer. */
export const MAX_ISSUES = 100;

/**
 * Text no engine stores faithfully: PostgreSQL refuses NUL characters (a 500 otherwise), and a lone
 * UTF-16 surrogate would be stored as U+FFFD, silently changing the data. Walks the input without
 * recursion, so any nesting depth JSON.parse accepts is safe.
 */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A path kept as a link to its parent, so walking deep input costs no copying. */
interface Step {
  value: unknown;
  key?: string | number;
  parent?: Step;
}

const pathOf = (step: Step): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let s: Step | undefined = step; s?.parent; s = s.parent) path.push(s.key!);
  return path.reverse();
};

function textIssues(input: unknown): Issue[] {
  const issues: Issue[] = [];
  const stack: Step[] = [{ value: input }];
  // The whole input is walked (the body limit bounds it) so the summary can say how many were left out.
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) issues.push({ message: 'Must not contain NUL characters', path: pathOf(step) });
      else if (loneSurrogate.test(value)) issues.push({ message: 'Must be well-formed Unicode (no lone surrogates)', path: pathOf(step) });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: step });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value).reverse()) stack.push({ value: v, key: k, parent: step });
    }
  }
  return issues;
}

const capped = (issues: Issue[], prefix: (string | number)[]): Issue[] =>
  issues.length <= MAX_ISSUES
    ? issues
    : [...issues.slice(0, MAX_ISSUES), { message: `${issues.length - MAX_ISSUES} more issues not shown`, path: prefix }];

/**
 * The one text rule, for every input (REST bodies, queries and paths through parseOrThrow; GraphQL
 * arguments through the access plugin): a string anywhere in `input` with a NUL character or a
 * lone surrogate throws 422 invalidRequestData, an issue at each such value's path (under `prefix`).
 */
export function assertStorableText(input: unknown, prefix: (string | number)[] = []): void {
  const text = textIssues(input);
  if (text.length > 0) throw invalidRequestData(capped(text.map((i) => ({ ...i, path: [...prefix, ...i.path] })), prefix));
}

/** Parses with a zod schema or throws 422 invalidRequestData, prefixing paths (e.g. ['query']). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, prefix: (string | number)[] = []): z.output<S> {
  assertStorableText(input, prefix);
  // Parsed without a context first: with any context object (here the error map) zod 4.x takes a
  // slower path on every parse, several times the cost of a small params object's parse
  // (bench/README.md). Input that fails is parsed again with the map, for its messages; a parse
  // is pure, so both runs find the same issues.
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const failed = schema.safeParse(input, { error: requiredMessage });
  if (failed.success) return failed.data;
  throw invalidRequestData(capped(toIssues(failed.error).map((i) => ({ ...i, path: [...prefix, ...i.path] })), prefix));
}
