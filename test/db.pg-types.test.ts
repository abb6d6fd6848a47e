import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamptzToIso } from '../src/db/pg-types.js';
import { freshDatabase, testEngine, type FreshDatabase } from './support/engine.js';

/**
 * PostgreSQL's timestamptz text turned into the ISO string `Date#toISOString` writes
 * (src/db/pg-types.ts): the fast path must give exactly what Date gives, for every form
 * PostgreSQL writes, and leave the forms it does not handle to Date.
 */
const viaDate = (text: string) => {
  try {
    return new Date(text).toISOString();
  } catch (err) {
    return `throws ${(err as Error).name}`;
  }
};
const converted = (text: string) => {
  try {
    return timestamptzToIso(text);
  } catch (err) {
    return `throws ${(err as Error).name}`;
  }
};

describe('timestamptz text to ISO', () => {
  it('gives what Date gives for UTC text with 0 to 6 fraction digits', () => {
    const texts: string[] = [];
    for (const base of ['2026-11-25 06:54:28', '2024-02-29 23:59:59', '1000-01-01 00:00:00', '9999-12-31 23:59:59', '1970-01-01 00:00:00']) {
      for (const fraction of ['', '.5', '.05', '.999', '.1239', '.99999', '.999999', '.000001', '.123456']) texts.push(`${base}${fraction}+00`);
    }
    for (const text of texts) expect(converted(text), text).toBe(viaDate(text));
    expect(timestamptzToIso('2026-11-25 06:54:28.1239+00')).toBe('2026-11-25T06:54:28.123Z');
  });

  it('leaves other offsets, eras and special values to Date', () => {
    for (const text of ['2026-11-25 06:54:28.12+05:30', '2026-11-25 06:54:28-08', '2026-11-25 06:54:28+05:45:10', '0999-01-01 00:00:00+00 BC', '12026-11-25 06:54:28+00', 'infinity', '-infinity', '2026-11-25 06:54:28.+00']) {
      expect(converted(text), text).toBe(viaDate(text));
    }
  });
});

describe.runIf(testEngine === 'postgres')('timestamptz read from PostgreSQL', () => {
  let target: FreshDatabase;
  beforeAll(async () => {
    target = await freshDatabase();
  });
  afterAll(() => target.close());

  it('reads every value as Date would parse its text, in UTC and in another session time zone', async () => {
    // Microsecond steps of a prime size, so that every fraction length and a carry into the
    // seconds turn up; the same instants read as text and as the parsed value.
    const values = sql<{ text: string; value: string }>`
      select t::text as text, t as value
      from generate_series(0, 1999) as n,
        lateral (select timestamptz '2026-11-25 06:54:28+00' + n * interval '1000003 microseconds' + n * n * interval '1 microsecond') as s(t)`;
    for (const zone of ['UTC', 'Asia/Kolkata']) {
      const rows = await target.database.db.connection().execute(async (db) => {
        await sql`set time zone ${sql.lit(zone)}`.execute(db);
        try {
          return (await values.execute(db)).rows;
        } finally {
          await sql`reset time zone`.execute(db);
        }
      });
      expect(rows).toHaveLength(2000);
      const wrong = rows.filter((r) => r.value !== viaDate(r.text));
      expect(wrong, zone).toEqual([]);
    }
  });
});
