import { PostgresAdapter, sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../src/db/types.js';
import { mulberry32, pick } from './prng.js';
import { customFieldDefs, errorActions, errorDetails, firstNames, genders, lastNames, noteTexts, places, tagNames, imageData } from './samples.js';

const DAY = 86_400_000;
const CHUNK = 1000;
// Both engines cap bound parameters per statement (SQLite 32766, PostgreSQL 65535): rows per
// insert are sized from the column count to stay under the smaller one.
const rowsPerInsert = (columns: number) => Math.floor(30_000 / columns);

async function insertMany(trx: Transaction<DB>, table: keyof DB, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const size = rowsPerInsert(Object.keys(rows[0]).length);
  for (let i = 0; i < rows.length; i += size) await trx.insertInto(table).values(rows.slice(i, i + size) as never).execute();
}

/**
 * A value of the field's type in its canonical stored form (see custom-field-value.ts), so
 * comparisons, searches and increments behave on synthetic data as on real data.
 */
function syntheticValue(type: string | undefined, n: number): string {
  switch (type) {
    case 'number':
      return String(n % 50);
    case 'boolean':
      return n % 2 === 0 ? 'true' : 'false';
    case 'date':
      return new Date(Date.UTC(1960, 0, 1) + n * 15 * 86_400_000).toISOString().slice(0, 10);
    default:
      return `value ${n}`;
  }
}

async function ensureRows(db: Kysely<DB>, workspaceId: number, now: string) {
  const ws = { workspace_id: workspaceId, created_at: now, updated_at: now };
  const has = async (table: 'custom_fields' | 'tags' | 'inboxes' | 'users' | 'sequences' | 'inbox_teams') =>
    (await db.selectFrom(table).select('id').where('workspace_id', '=', workspaceId).execute()).map((r) => r.id);
  let fields = await has('custom_fields');
  if (!fields.length) {
    await db.insertInto('custom_fields').values(customFieldDefs.map((f) => ({ ...ws, ...f }))).execute();
    fields = await has('custom_fields');
  }
  let tags = await has('tags');
  if (!tags.length) {
    await db.insertInto('tags').values(Array.from({ length: 20 }, (_, i) => ({ ...ws, name: `${tagNames[i % tagNames.length]} ${Math.floor(i / tagNames.length) + 1}` }))).execute();
    tags = await has('tags');
  }
  let inboxes = await has('inboxes');
  if (!inboxes.length) {
    await db.insertInto('inboxes').values(['photo', 'net', 'chat'].map((channel) => ({ ...ws, name: `${channel} inbox`, channel, source_id: `${channel}-1`, status: 'active' }))).execute();
    inboxes = await has('inboxes');
  }
  let users = await has('users');
  if (!users.length) {
    await db.insertInto('users').values({ ...ws, name: 'Synthetic agent', email: `agent+${workspaceId}@synthetic.example`, email_verified: 1, is_anonymous: 0 }).execute();
    users = await has('users');
  }
  let teams = await has('inbox_teams');
  if (!teams.length) {
    await db.insertInto('inbox_teams').values(['Sales', 'Support'].map((name) => ({ ...ws, name }))).execute();
    teams = await has('inbox_teams');
  }
  let sequences = await has('sequences');
  if (!sequences.length) {
    await db.insertInto('sequences').values(['Welcome', 'Nurture', 'Win-back'].map((name) => ({ ...ws, name }))).execute();
    sequences = await has('sequences');
  }
  const fieldTypes = new Map(
    (await db.selectFrom('custom_fields').select(['id', 'type']).where('workspace_id', '=', workspaceId).execute()).map((f) => [f.id, f.type]),
  );
  return { fields, fieldTypes, tags, inboxes, users, teams, sequences };
}

/**
 * Inserts `count` synthetic contacts with proportional related rows (about 2 custom-field values,
 * 1.5 tags, 0.5 notes, 0.5 conversations, 1 inbox membership, 0.3 sequence subscriptions and 1
 * error log per contact; a dynamic image per 1000 contacts, at least 10), in batched multi-row
 * inserts, one transaction per 1000 contacts. Deterministic for a seed; emails and phone numbers
 * continue from the workspace's current maximum id, so seeding twice never collides.
 */
export async function seedSyntheticContacts(
  db: Kysely<DB>,
  workspaceId: number,
  count: number,
  opts: { seed?: number; onProgress?: (done: number) => void } = {},
): Promise<void> {
  const random = mulberry32(opts.seed ?? 42);
  const nowMs = Date.now();
  const nowIso = new Date(nowMs).toISOString();
  const ref = await ensureRows(db, workspaceId, nowIso);
  const offset = Number((await db.selectFrom('contacts').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
  const chance = (p: number) => random() < p;
  const whenAgo = () => new Date(nowMs - Math.floor(random() * 90 * DAY)).toISOString();

  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    await db.transaction().execute(async (trx) => {
      const contactRows = Array.from({ length: n }, (_, i) => {
        const serial = offset + start + i + 1;
        const first = pick(random, firstNames);
        const last = pick(random, lastNames);
        const place = pick(random, places);
        const created = whenAgo();
        return {
          workspace_id: workspaceId,
          first_name: first,
          last_name: last,
          email: `${first}.${serial}@synthetic.example`.toLowerCase(),
          phone_number: `+1${String(2000000000 + serial)}`,
          gender: pick(random, genders),
          country: place.country,
          city: place.city,
          locale: place.locale,
          timezone: place.timezone,
          email_verified: chance(0.5) ? 1 : 0,
          email_opt_in: chance(0.3) ? 1 : 0,
          subscribed_at: created,
          last_message_at: chance(0.5) ? whenAgo() : null,
          created_at: created,
          updated_at: created,
        };
      });
      const ids: number[] = [];
      const size = rowsPerInsert(Object.keys(contactRows[0]).length);
      for (let i = 0; i < contactRows.length; i += size) {
        const inserted = await trx.insertInto('contacts').values(contactRows.slice(i, i + size)).returning('id').execute();
        ids.push(...inserted.map((r) => r.id));
      }

      const ws = { workspace_id: workspaceId };
      const values: Record<string, unknown>[] = [];
      const tags: Record<string, unknown>[] = [];
      const notes: Record<string, unknown>[] = [];
      const memberships: Record<string, unknown>[] = [];
      const conversations: Record<string, unknown>[] = [];
      const subscriptions: Record<string, unknown>[] = [];
      const logs: Record<string, unknown>[] = [];
      for (const contactId of ids) {
        const at = whenAgo();
        const stamps = { created_at: at, updated_at: at };
        const fieldStart = Math.floor(random() * ref.fields.length);
        for (let k = 0; k < 2; k++) {
          const fieldId = ref.fields[(fieldStart + k) % ref.fields.length];
          values.push({ ...ws, contact_id: contactId, custom_field_id: fieldId, value: syntheticValue(ref.fieldTypes.get(fieldId), Math.floor(random() * 1000)), ...stamps });
        }
        const tagStart = Math.floor(random() * ref.tags.length);
        for (let k = 0; k < (chance(0.5) ? 2 : 1); k++) tags.push({ ...ws, contact_id: contactId, tag_id: ref.tags[(tagStart + k) % ref.tags.length], created_at: at });
        if (chance(0.5)) notes.push({ ...ws, contact_id: contactId, created_by_id: pick(random, ref.users), text: pick(random, noteTexts), ...stamps });
        const inboxIndex = Math.floor(random() * ref.inboxes.length);
        memberships.push({ ...ws, contact_id: contactId, inbox_id: ref.inboxes[inboxIndex], channel: ['photo', 'net', 'chat'][inboxIndex % 3], created_at: at });
        if (chance(0.5)) {
          conversations.push({
            ...ws, contact_id: contactId, inbox_id: ref.inboxes[inboxIndex], assigned_user_id: pick(random, ref.users), assigned_inbox_team_id: pick(random, ref.teams),
            bot_enabled: 1, followed: chance(0.8) ? 1 : 0, additional_attributes: '{}', last_activity_at: at, contact_replied_at: at, ...stamps,
          });
        }
        if (chance(0.3)) subscriptions.push({ ...ws, contact_id: contactId, sequence_id: pick(random, ref.sequences), created_at: at });
        logs.push({ ...ws, contact_id: contactId, action: pick(random, errorActions), detail: pick(random, errorDetails), http_code: chance(0.5) ? '400' : '500', ...stamps });
      }
      await insertMany(trx, 'contact_custom_fields', values);
      await insertMany(trx, 'contact_tags', tags);
      await insertMany(trx, 'contact_notes', notes);
      await insertMany(trx, 'contact_inboxes', memberships);
      await insertMany(trx, 'conversations', conversations);
      await insertMany(trx, 'sequence_subscriptions', subscriptions);
      await insertMany(trx, 'error_logs', logs);
    });
    opts.onProgress?.(start + n);
  }

  const images = Math.max(10, Math.floor(count / 1000));
  await db.transaction().execute(async (trx) => {
    await insertMany(trx, 'dynamic_images', Array.from({ length: images }, (_, i) => {
      const at = whenAgo();
      const fieldId = pick(random, ref.fields);
      return {
        workspace_id: workspaceId, name: `${pick(random, ['Promo', 'Birthday', 'Order', 'Welcome', 'Coupon'])} image ${offset + i + 1}`, custom_field_id: fieldId,
        background_url: `https://cdn.example.com/bg/${i}.png`, image_url: `https://cdn.example.com/out/${i}.png`, enabled: 1, data: JSON.stringify(imageData(fieldId)), created_at: at, updated_at: at,
      };
    }));
  });

  // After a bulk load PostgreSQL plans from stale statistics (and VACUUM, not ANALYZE alone, brings
  // the trigram GIN indexes' up to date): until autovacuum comes round, searches would scan.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const tables = ['contacts', 'contact_custom_fields', 'contact_tags', 'contact_notes', 'contact_inboxes', 'conversations', 'sequence_subscriptions', 'error_logs', 'dynamic_images'];
    await sql`vacuum analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
  }
}
