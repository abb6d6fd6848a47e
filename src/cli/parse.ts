import { InvalidArgumentError } from 'commander';
import { z } from 'zod';

/** commander option parsers backed by zod, so bad values stop with a clear message. */
const parser = <T>(schema: z.ZodType<T>, what: string) => (value: string): T => {
  const r = schema.safeParse(value);
  if (!r.success) throw new InvalidArgumentError(`expected ${what}`);
  return r.data;
};

export const positiveId = parser(z.coerce.number().int().positive(), 'a positive whole number');
export const nonNegativeInt = parser(z.coerce.number().int().min(0).max(2_147_483_647), 'a whole number from 0');
export const contactCount = parser(z.coerce.number().int().min(1).max(10_000_000), 'a whole number from 1 to 10,000,000');
/** Any ISO 8601 date-time, stored as UTC with milliseconds (as every timestamp leaves the API). */
export const isoDate = parser(
  z.iso.datetime({ offset: true }).transform((v) => new Date(v).toISOString()),
  'an ISO 8601 date-time such as 2026-12-31T00:00:00Z',
);
export const commaList = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);
/**
 * A repeatable NAME=VALUE option, collected in order. It is split at the first `=` or, when the
 * name may hold one (a column's header) and the value cannot, at the last.
 */
export const pairs = (what: string, splitAt: 'first' | 'last') => (value: string, previous: [string, string][] = []): [string, string][] => {
  const i = splitAt === 'first' ? value.indexOf('=') : value.lastIndexOf('=');
  if (i <= 0) throw new InvalidArgumentError(`expected ${what}`);
  return [...previous, [value.slice(0, i), value.slice(i + 1)]];
};
