import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';

/**
 * How contact CSV files are read and written: streamed (csv-parse, csv-stringify), never whole.
 * In: a UTF-8 BOM is dropped, quoted fields may hold delimiters and line breaks, lines may end in
 * CRLF, LF or CR, and the delimiter (`,`, `;` or tab) is the one the header line uses most. Out:
 * a BOM first (spreadsheets then read UTF-8), CRLF, quotes where a cell needs them, and formula
 * cells escaped (below).
 */

export type Delimiter = ',' | ';' | '\t';
const delimiters: readonly Delimiter[] = [',', ';', '\t'];

/** The delimiter the first line of `head` (the file's first bytes) uses most, outside quotes; `,` when none. */
export function detectDelimiter(head: string): Delimiter {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const c of head) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (delimiters as readonly string[]).includes(c)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best: Delimiter = ',';
  for (const d of delimiters) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * A record longer than this (in characters) is reported instead of read. The parser holds a record
 * whole until it ends, so an upload's size (20 MB) bounds what one record can cost; this bound is
 * for what a row may be.
 */
export const MAX_RECORD_CHARS = 256 * 1024;

/**
 * One record of a file. `row` is its row as a spreadsheet numbers it: the header is row 1, a
 * record holding line breaks in quotes is one row, and blank lines count. A record the parser
 * cannot read, or too long to take, comes as `malformed`, with why.
 */
export type CsvRecord = { row: number; cells: string[] } | { row: number; malformed: string };

/**
 * The records of a CSV byte stream, in order. Quotes are read leniently (a stray quote inside a
 * field is kept as a character, as spreadsheets do), so one bad field never shifts the records
 * after it.
 */
export async function* csvRecords(source: AsyncIterable<Uint8Array>, delimiter: Delimiter): AsyncGenerator<CsvRecord> {
  const out: CsvRecord[] = [];
  let skipped = 0;
  let failure: Error | undefined;
  // The parser runs synchronously inside write(): records are collected as it calls back, and
  // handed out after each piece, so their order is the file's whatever the parser skips.
  const parser = parse({
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: (cells: string[], ctx) => {
      const row = ctx.records + ctx.empty_lines + skipped;
      const chars = cells.reduce((n, c) => n + c.length, 0);
      out.push(chars > MAX_RECORD_CHARS ? { row, malformed: `the row holds ${chars} characters; at most ${MAX_RECORD_CHARS} are read` } : { row, cells });
      return null;
    },
  });
  parser.on('skip', (err: Error & { records?: number; empty_lines?: number }) => {
    out.push({ row: (err.records ?? 0) + (err.empty_lines ?? 0) + skipped + 1, malformed: err.message });
    skipped++;
  });
  parser.on('error', (err) => (failure = err));
  for await (const chunk of source) {
    parser.write(chunk);
    if (failure) throw failure;
    yield* out.splice(0);
  }
  parser.end();
  if (failure) throw failure;
  yield* out.splice(0);
}

/** Characters that make a spreadsheet read a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as written out: one a spreadsheet would run as a formula gets a leading `'`. */
export const escapeFormula = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** A cell as read in: the `'` an export put before a formula character is taken off again. */
export const unescapeFormula = (cell: string): string => (cell.length > 1 && cell[0] === "'" && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);

/** A BOM, then the rows as CSV (CRLF), each cell escaped; a byte stream for the file store. */
export async function* csvBytes(rows: AsyncIterable<string[]>): AsyncGenerator<Uint8Array> {
  yield Buffer.from('\ufeff', 'utf8');
  const stringifier = stringify({ record_delimiter: 'windows', cast: { string: escapeFormula } });
  const chunks: Buffer[] = [];
  stringifier.on('data', (chunk: Buffer) => chunks.push(chunk));
  for await (const row of rows) {
    stringifier.write(row);
    if (chunks.length > 0) yield Buffer.concat(chunks.splice(0));
  }
  stringifier.end();
  await new Promise((resolve) => stringifier.once('end', resolve));
  if (chunks.length > 0) yield Buffer.concat(chunks.splice(0));
}

/** Rows of cells as CSV text, whole (small files: the import template). */
export function csvText(rows: string[][]): string {
  const line = (row: string[]) => row.map((c) => {
    const cell = escapeFormula(c);
    return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
  }).join(',');
  return rows.map(line).join('\r\n') + '\r\n';
}
