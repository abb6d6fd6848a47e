import type * as PgModule from 'pg';

/**
 * PostgreSQL hands back timestamptz as text and int8/numeric as strings; these parsers make them
 * the shapes services see on SQLite (ISO strings and numbers). pg asks for a parser per column of
 * every result.
 */
export function postgresTypeParsers(pg: Pick<typeof PgModule, 'types'>) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 1184) return timestamptzToIso;
      if (oid === 1114) return toIso;
      if (oid === 20 || oid === 1700) return toNumber;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
}

const toIso = (v: string) => new Date(v).toISOString();
const toNumber = (v: string) => Number(v);

/**
 * A timestamptz as `Date#toISOString` writes it. In a UTC session PostgreSQL writes
 * `YYYY-MM-DD HH:MM:SS[.f to ffffff]+00`, which becomes the ISO form by moving characters
 * (milliseconds truncated, as Date truncates them): Date's parser is slow for this form, and a
 * list of 20 rows has 40 of them (bench/README.md). Any other form (another session time zone, years
 * outside 1000-9999, BC, infinity) goes through Date as before.
 */
export function timestamptzToIso(v: string): string {
  const n = v.length;
  if (
    n >= 22 &&
    n <= 29 &&
    n !== 23 &&
    v.charCodeAt(4) === 45 && // -
    v.charCodeAt(7) === 45 &&
    v.charCodeAt(10) === 32 && // space
    v.charCodeAt(13) === 58 && // :
    v.charCodeAt(16) === 58 &&
    v.endsWith('+00') &&
    (n === 22 || v.charCodeAt(19) === 46) // . before the fraction
  ) {
    const fraction = n === 22 ? '000' : (v.slice(20, n - 3) + '00').slice(0, 3);
    return `${v.slice(0, 10)}T${v.slice(11, 19)}.${fraction}Z`;
  }
  return toIso(v);
}
