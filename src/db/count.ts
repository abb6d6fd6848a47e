import type { SelectQueryBuilder } from 'kysely';

/**
 * `count(*)` of a filtered query as a number: PostgreSQL returns bigint counts as strings, and one
 * place turns them into numbers.
 */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number((row as unknown as { n: number | string }).n);
}
