/**
 * A 10,000-row import file with every kind of row an import meets, made by index (no randomness),
 * with what the import must do with each row: its outcome and, for rows not taken, the exact
 * error record. The workspace needs EXISTING contacts first (`existingContacts`): the file updates
 * some, leaves some unchanged, and conflicts with others.
 */

export const HEADER = ['Contact ID', 'First name', 'Last name', 'E-mail', 'Phone number', 'Score'];
export const COLUMN_MAP = { contactId: 'Contact ID', firstName: 'First name', lastName: 'Last name', email: 'E-mail', phoneNumber: 'Phone number' };

export interface Existing {
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
}

/** Contacts the workspace has before the import: 200 to update, 200 unchanged, 200 + 200 to conflict with. */
export const existingContacts = (): Existing[] =>
  Array.from({ length: 800 }, (_, j) => ({ email: `existing-${j}@mail.example`, phone: `+1646234${String(j).padStart(4, '0')}`, firstName: `Old${j}`, lastName: `Kept${j}` }));

export type Outcome =
  | { kind: 'created' | 'updated' | 'skipped' }
  | { kind: 'failed' | 'repeat'; code: string; column: string | null; path: string | null; value: string | null; matchedContactIndex?: number; firstRow?: number };

export interface Row {
  row: number;
  cells: string[];
  outcome: Outcome;
}

const csvCell = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);

/** The rows, each with its expected outcome; `rows` data rows (a multiple of 50). */
export function importRows(rows = 10_000): Row[] {
  const out: Row[] = [];
  const newEmail = (i: number) => `new-${i}@mail.example`;
  for (let i = 0; i < rows; i++) {
    const row = i + 2;
    const block = Math.floor(i / 50);
    const k = i % 50;
    const phone = `(212) 234-${String(i).padStart(4, '0')}`;
    // A good new contact, some names holding a comma, a quote or a line break.
    const good = (): Row => ({ row, cells: ['', `First${i}`, i % 7 === 0 ? `Smith, "Jr."\n${i}` : `Last${i}`, newEmail(i), phone, String(i)], outcome: { kind: 'created' } });
    const fail = (cells: string[], code: string, column: string | null, path: string | null, value: string | null, matchedContactIndex?: number): Row => ({
      row,
      cells,
      outcome: { kind: 'failed', code, column, path, value, ...(matchedContactIndex === undefined ? {} : { matchedContactIndex }) },
    });
    switch (k) {
      case 0:
        out.push(fail(['', 'A', 'B', `nope-${i}`, '', ''], 'invalidEmail', 'E-mail', 'email', `nope-${i}`));
        break;
      case 1:
        out.push(fail(['', 'A', 'B', '', '12', ''], 'invalidPhone', 'Phone number', 'phoneNumber', '12'));
        break;
      case 2:
        out.push(fail(['', 'Only', 'Names', '', '', '5'], 'missingIdentifier', null, null, null));
        break;
      case 3:
        // The email of a good row of the block before (its k = 10 row); the first block has none before it.
        if (block === 0) out.push(good());
        else out.push({ row, cells: ['', 'Again', 'Again', newEmail(i - 43), '', ''], outcome: { kind: 'repeat', code: 'duplicateInFile', column: null, path: 'email', value: newEmail(i - 43), firstRow: i - 43 + 2 } });
        break;
      case 4:
        out.push(fail(['', 'Num', 'Bad', newEmail(i), phone, 'abc'], 'customFieldInvalid', 'Score', 'customFields.SCORE', 'abc'));
        break;
      case 5:
        out.push(fail([String(900_000 + i), 'No', 'Body', '', '', ''], 'contactNotFound', null, 'contactId', String(900_000 + i)));
        break;
      case 6:
        // An existing contact: a new first name; the blank last name and score change nothing.
        out.push({ row, cells: ['', 'Changed', '', `existing-${block}@mail.example`, '', ''], outcome: { kind: 'updated' } });
        break;
      case 7:
        // An existing contact, exactly as stored (any case of its email): nothing to change.
        out.push({ row, cells: ['', `Old${200 + block}`, '', `EXISTING-${200 + block}@mail.example`, '', ''], outcome: { kind: 'skipped' } });
        break;
      case 8:
        // The email of one contact with the phone number of another.
        out.push(fail(['', 'Mixed', 'Up', `existing-${400 + block}@mail.example`, `+1646234${String(600 + block).padStart(4, '0')}`, ''], 'identifierConflict', null, 'phoneNumber', `+1646234${String(600 + block).padStart(4, '0')}`, 600 + block));
        break;
      case 9:
        out.push(fail(['', 'x'.repeat(256), 'Long', newEmail(i), phone, ''], 'invalidName', 'First name', 'firstName', 'x'.repeat(256)));
        break;
      default:
        out.push(good());
    }
  }
  return out;
}

/** The file's text: a BOM, the header, CRLF rows (quoted where a cell needs it). */
export const importCsv = (rows: Row[], delimiter = ',') =>
  '\ufeff' + [HEADER, ...rows.map((r) => r.cells)].map((cells) => cells.map(csvCell).join(delimiter)).join('\r\n') + '\r\n';

/** created + updated + skipped + failed, as the import must count them (a repeat is skipped). */
export function expectedCounts(rows: Row[]) {
  const count = (kinds: string[]) => rows.filter((r) => kinds.includes(r.outcome.kind)).length;
  return { created: count(['created']), updated: count(['updated']), skipped: count(['skipped', 'repeat']), failed: count(['failed']), total: rows.length };
}
