import { z } from 'zod';

/**
 * Page-number pagination of the contract: page 1..2^53-1, perPage 1..50. Query strings arrive as
 * text, so digits are required and converted; "1.5", "0", "51" or "abc" are 422, never clamped.
 */
/** 1 to `max`, with the same messages for REST query text and GraphQL arguments. */
const positiveInteger = (max: number, name: string) =>
  z
    .number()
    // The bounds abort first: zod's own int() check would add a second, vaguer issue past 2^53-1.
    .max(max, { error: `${name} must be at most ${max}`, abort: true })
    .min(1, { error: `${name} must be at least 1`, abort: true })
    .int(`${name} must be a whole number`);

const positiveIntegerText = (max: number, name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(positiveInteger(max, name));

export const MAX_PAGE = Number.MAX_SAFE_INTEGER;
export const MAX_PER_PAGE = 50;
export const DEFAULT_PER_PAGE = 50;

export const pageQueryFields = {
  page: positiveIntegerText(MAX_PAGE, 'page').default(1).meta({ description: 'Page number, starting at 1' }),
  perPage: positiveIntegerText(MAX_PER_PAGE, 'perPage').default(DEFAULT_PER_PAGE).meta({ description: 'Items per page, 1 to 50 (default 50)' }),
};

/** The same bounds for GraphQL, where arguments are already integers. */
export const pageArgsSchema = z.object({
  page: positiveInteger(MAX_PAGE, 'page').default(1),
  perPage: positiveInteger(MAX_PER_PAGE, 'perPage').default(DEFAULT_PER_PAGE),
});

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface Page<T> {
  data: T[];
  pageCount: number;
}

export const pageCountOf = (total: number, perPage: number) => Math.ceil(total / perPage);

/**
 * Offset of a page, or null when the page lies past the last row: then no row query is needed
 * (and a huge page number never becomes an offset beyond what SQL engines accept).
 */
export const offsetOf = (p: PageRequest, total: number): number | null => {
  const offset = (p.page - 1) * p.perPage;
  return offset < total ? offset : null;
};

/** One page: the total first (for pageCount), then the rows only when the page is not past the end. */
export async function fetchPage<T>(
  p: PageRequest,
  count: () => Promise<number>,
  rows: (window: { limit: number; offset: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const total = await count();
  const offset = offsetOf(p, total);
  const data = offset === null ? [] : await rows({ limit: p.perPage, offset });
  return { data, pageCount: pageCountOf(total, p.perPage) };
}

/** A cursor list's `limit` in a query string: a whole number from 1 to `max`, each bound its own message. */
export const cursorLimitText = (max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number')
    .transform(Number)
    .pipe(
      z
        .number()
        .max(max, { error: `limit must be at most ${max}`, abort: true })
        .min(1, { error: 'limit must be at least 1', abort: true }),
    );
