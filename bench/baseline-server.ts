// A bare node:http server running the same SQL as the API for the benchmarked reads, with no
// framework, authentication, validation, rate limits or logging: the floor the API is compared to.
// SQLite through better-sqlite3 (statements prepared once), PostgreSQL through a pg.Pool with named
// (prepared) statements, chosen by DATABASE_URL like the server. It answers the nested GraphQL page
// too: the API's statements for `nestedContactsQuery` (graphql.cases.ts), the JSON assembled by
// hand, so that bench/run.ts can check it deep-equals the API's before comparing their speeds.
import Database from 'better-sqlite3';
import pg from 'pg';
import { createServer, type ServerResponse } from 'node:http';
import { isPostgresUrl } from '../src/config/config.js';
import { workspaceTrigramQuery } from '../src/db/search.js';
import { likeContains } from '../src/db/values.js';
import { postgresTypeParsers } from '../src/db/pg-types.js';
import { withContractFields } from '../src/domain/dynamic-images/dynamic-image.schema.js';

const url = process.env.DATABASE_URL!;
const workspaceId = Number(process.env.BENCH_WORKSPACE_ID);
const engine = isPostgresUrl(url) ? 'postgres' : 'sqlite';

type Row = Record<string, any>;
type Query = (name: string, text: string, params: unknown[]) => Row[] | Promise<Row[]>;

/** One statement run the engine's cheapest way: a kept better-sqlite3 statement, or a named pg one. */
const query: Query = engine === 'sqlite' ? sqliteQuery() : postgresQuery();

function sqliteQuery(): Query {
  const db = new Database(url, { readonly: true });
  db.pragma('journal_mode = WAL');
  const statements = new Map<string, Database.Statement>();
  return (_name, text, params) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare(text)));
    return statement.all(...params) as Row[];
  };
}

function postgresQuery(): Query {
  // The API's own type parsers: the same values, converted the same way.
  const pool = new pg.Pool({ connectionString: url, max: 10, types: postgresTypeParsers(pg) });
  // `?` placeholders (one statement text for both engines where they agree) numbered for pg.
  const numbered = new Map<string, string>();
  return async (name, text, params) => {
    let sql = numbered.get(text);
    if (sql === undefined) {
      let n = 0;
      numbered.set(text, (sql = text.replace(/\?/g, () => `$${++n}`)));
    }
    return (await pool.query({ name, text: sql, values: params })).rows;
  };
}

/** A text per engine where the API's SQL differs between them. */
const bySql = (sqlite: string, postgres: string) => (engine === 'sqlite' ? sqlite : postgres);

/** `column in (ids)` as the API's loaders write it (src/db/prepared.ts inIds): the whole list is one parameter. */
const inIds = (column: string) => bySql(`${column} in (select value from json_each(?))`, `${column} = any(?::int8[])`);
const idsParam = (ids: number[]) => (engine === 'sqlite' ? JSON.stringify(ids) : ids);
const contactColumns =
  '"id", "workspace_id", "avatar", "phone_number", "email", "first_name", "last_name", "ref", "country", "state", "city", "location", "locale", "timezone", "gender", "email_verified", "email_opt_in", "last_read_at", "subscribed_at", "broadcast_subscribed_at", "blocked_at", "last_message_at", "created_at", "updated_at"';
const iso = (v: unknown) => (v === null || v === undefined ? null : String(v));
const bool = (v: unknown) => v === true || v === 1;
const globalId = (type: string, id: unknown) => Buffer.from(`${type}:${id}`).toString('base64');

// ---- REST reads: the API's statements, the API's JSON.

const tagsSql = `select "id", "name", "created_at", "updated_at", "deleted_at", "folder_id", "workspace_id" from "tags" where "workspace_id" = ? and "deleted_at" is null order by lower(name)${bySql('', ' collate "C"')}, "id"`;
async function tags() {
  const rows = await query('tags', tagsSql, [workspaceId]);
  return { data: rows.map((r) => ({ id: String(r.id), name: r.name })) };
}

const contactSql = `select ${contactColumns} from "contacts" where "workspace_id" = ? and "id" = ?`;
// A contact's fields as the API reads them (custom-field.repository.ts): the contacts, the
// definitions and the stored values as three sets in one statement, joined in code.
const fieldSetsSql = `select 0 as kind, c.id as contact_id, null as field_id, null as name, null as description, null as type, null as value
      from contacts as c where +"c"."workspace_id" = ? and ${inIds('"c"."id"')}
      union all
      select 1, null, f.id, f.name, f.description, f.type, null from custom_fields as f where f.workspace_id = ?
      union all
      select 2, v.contact_id, v.custom_field_id, null, null, null, v.value
      from contact_custom_fields as v where +"v"."workspace_id" = ? and ${inIds('"v"."contact_id"')}`;
async function fieldValues(ids: number[]): Promise<(id: number) => Row[]> {
  const rows = await query('field-sets', fieldSetsSql, [workspaceId, idsParam(ids), workspaceId, workspaceId, idsParam(ids)]);
  const fields = rows.filter((r) => r.kind === 1).sort((a, b) => Number(a.field_id) - Number(b.field_id));
  const values = new Map(rows.filter((r) => r.kind === 2).map((r) => [`${r.contact_id}:${r.field_id}`, r.value as string]));
  const contacts = new Set(rows.filter((r) => r.kind === 0).map((r) => Number(r.contact_id)));
  return (id) => (contacts.has(id) ? fields.map((f) => ({ id: f.field_id, name: f.name, description: f.description, type: f.type, value: values.get(`${id}:${f.field_id}`) ?? '' })) : []);
}
async function customFields(contactId: number) {
  const contact = await query('contact', contactSql, [workspaceId, contactId]);
  if (contact.length === 0) return null;
  const rows = (await fieldValues([contactId]))(contactId);
  return { data: rows.map((r) => ({ id: String(r.id), name: r.name, description: r.description, value: r.value ?? '', type: r.type })) };
}

const imageColumns = '"id", "workspace_id", "name", "custom_field_id", "background_url", "image_url", "enabled", "data", "created_at", "updated_at"';
// PostgreSQL narrows the names by the workspace's trigram tokens first (docs/postgres-redis.md, search indexes).
const imagesWhere = bySql(`"workspace_id" = ? and "name" like ? escape '\\'`, `+"workspace_id" = ? and search_tokens @@ workspace_trigram_query(?, ?) and "name" ilike ? escape '\\'`);
const imagesCountSql = `select count(*) as "n" from "dynamic_images" where ${imagesWhere}`;
const imagesSql = `select ${imageColumns} from "dynamic_images" where ${imagesWhere} order by "created_at" desc, "id" desc limit ? offset ?`;
/** Every element with every contract field, as the API answers it (the domain's own pure function). */
const layoutOf = (stored: unknown) => {
  const layout = (typeof stored === 'string' ? JSON.parse(stored) : stored) as { backgroundColor?: string; elements: Parameters<typeof withContractFields>[0][] };
  layout.backgroundColor ??= '';
  for (const element of layout.elements) withContractFields(element);
  return layout;
};

async function dynamicImages(name: string) {
  const like = likeContains(name);
  const filter = engine === 'sqlite' ? [workspaceId, like] : [workspaceId, workspaceId, name, like];
  const total = Number((await query('images-count', imagesCountSql, filter))[0].n);
  const rows = await query('images', imagesSql, [...filter, 50, 0]);
  const data = rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    customFieldId: r.custom_field_id === null ? '' : String(r.custom_field_id),
    backgroundUrl: r.background_url,
    // The API's public link of the image (src/domain/dynamic-images/dynamic-image-links.ts).
    imageUrl: `${process.env.BENCH_PUBLIC_BASE_URL}/dynamic-images?dynamicImageId=${r.id}`,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    enabled: bool(r.enabled),
    data: layoutOf(r.data),
  }));
  return { data, pageCount: Math.ceil(total / 50) };
}

// The API's keyword search (error-log.service.ts): matches counted up to 1,001, a keyword with more
// remembered as common for 15 s, its pages walked in date order; the others from the trigram index.
const likeBoth = bySql(`("detail" like ? escape '\\' or "action" like ? escape '\\')`, `("detail" ilike ? escape '\\' or "action" ilike ? escape '\\')`);
const logsWhere = bySql(
  `+"workspace_id" = ? and id in (select rowid from "error_logs_search" where "error_logs_search" match ?) and ${likeBoth}`,
  `+"workspace_id" = ? and search_tokens @@ workspace_trigram_query(?, ?) and ${likeBoth}`,
);
const logsCountSql = bySql(
  `select count(*) as "n" from (select 1 from error_logs_search join error_logs on error_logs.id = error_logs_search.rowid where error_logs_search match ? and +error_logs.workspace_id = ? and ${likeBoth.replace(/"(detail|action)"/g, 'error_logs.$1')} limit ?)`,
  `select count(*) as "n" from (select 1 as "one" from "error_logs" where ${logsWhere} limit ?) as "matches"`,
);
const logColumns = '"id", "workspace_id", "contact_id", "action", "detail", "http_code", "created_at", "updated_at"';
const logsSql = `select ${logColumns} from "error_logs" where ${logsWhere} order by "created_at" desc, "id" desc limit ? offset ?`;
const commonLogsSql = `select ${logColumns} from "error_logs" where "workspace_id" = ? and ${likeBoth} order by "created_at" desc, "id" desc limit ? offset ?`;
const commonUntil = new Map<string, number>();
async function errorLogs(keyword: string) {
  const like = likeContains(keyword);
  // SQLite: the FTS5 query of the keyword's workspace trigrams; PostgreSQL builds it in SQL.
  const filter = engine === 'sqlite' ? [workspaceId, workspaceTrigramQuery(workspaceId, keyword), like, like] : [workspaceId, workspaceId, keyword, like, like];
  let common = (commonUntil.get(keyword) ?? 0) > Date.now();
  let total = 1000;
  if (!common) {
    const countParams = engine === 'sqlite' ? [workspaceTrigramQuery(workspaceId, keyword), workspaceId, like, like, 1001] : [...filter, 1001];
    const counted = Number((await query('logs-count', logsCountSql, countParams))[0].n);
    common = counted > 1000;
    if (common) commonUntil.set(keyword, Date.now() + 15_000);
    else total = counted;
  }
  const rows = total === 0 ? [] : common ? await query('logs-common', commonLogsSql, [workspaceId, like, like, 50, 0]) : await query('logs', logsSql, [...filter, 50, 0]);
  return { data: rows.map((r) => ({ ...r, id: String(r.id) })), pageCount: Math.ceil(total / 50) };
}

// GET /v1/contacts?include=tags,customFields: the count, a page of 50 newest first, its tags and values.
const contactsCountSql = 'select count(*) as "n" from "contacts" where contacts.workspace_id = ? and 1 = 1';
const contactsPageSql = `select ${contactColumns
  .split(', ')
  .map((c) => `"contacts".${c}`)
  .join(', ')} from "contacts" where contacts.workspace_id = ? and 1 = 1 order by "contacts"."created_at" desc, "contacts"."id" desc limit ? offset ?`;
/** The live tags of many contacts with these tag columns (the API's tag.repository.ts ofContacts). */
const tagsOfContactsSql = (columns: string) =>
  `select ${columns}, "ct"."contact_id" from "contact_tags" as "ct" inner join "tags" as "t" on "t"."id" = "ct"."tag_id" where +"ct"."workspace_id" = ? and +"t"."workspace_id" = ? and ${inIds('"ct"."contact_id"')} and "t"."deleted_at" is null order by lower(t.name)${bySql('', ' collate "C"')}, "t"."id"`;
const tagsOfSql = tagsOfContactsSql('"t"."id", "t"."name", "t"."created_at", "t"."updated_at", "t"."deleted_at", "t"."folder_id", "t"."workspace_id"');
const valuesOfSql =
  `select "v"."id", "v"."created_at", "v"."updated_at", "v"."value", "v"."contact_id", "v"."custom_field_id" from "contact_custom_fields" as "v" inner join "custom_fields" as "f" on "f"."id" = "v"."custom_field_id" where +"v"."workspace_id" = ? and +"f"."workspace_id" = ? and ${inIds('"v"."contact_id"')} order by "v"."custom_field_id"`;

const contactJson = (r: Row) => ({
  id: String(r.id),
  avatar: r.avatar,
  phoneNumber: r.phone_number,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  fullName: [r.first_name, r.last_name].filter(Boolean).join(' '),
  ref: r.ref,
  country: r.country,
  state: r.state,
  city: r.city,
  location: r.location,
  locale: r.locale,
  timezone: r.timezone,
  workspaceId: String(r.workspace_id),
  gender: r.gender,
  emailVerified: bool(r.email_verified),
  emailOptIn: bool(r.email_opt_in),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  lastReadAt: iso(r.last_read_at),
  subscribedAt: iso(r.subscribed_at),
  broadcastSubscribedAt: iso(r.broadcast_subscribed_at),
  blockedAt: iso(r.blocked_at),
});

/** Rows grouped by their `contact_id`, in the statement's order. */
const byContact = (rows: Row[]) => {
  const groups = new Map<number, Row[]>();
  for (const r of rows) {
    const key = Number(r.contact_id);
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  return (id: number) => groups.get(id) ?? [];
};

async function contactsPage() {
  const total = Number((await query('contacts-count', contactsCountSql, [workspaceId]))[0].n);
  const rows = await query('contacts-page', contactsPageSql, [workspaceId, 50, 0]);
  const ids = rows.map((r) => Number(r.id));
  const tagsOf = byContact(await query('tags-of', tagsOfSql, [workspaceId, workspaceId, idsParam(ids)]));
  const valuesOf = byContact(await query('values-of', valuesOfSql, [workspaceId, workspaceId, idsParam(ids)]));
  const data = rows.map((r) => ({
    ...contactJson(r),
    tags: tagsOf(Number(r.id)).map((t) => ({ id: String(t.id), createdAt: iso(t.created_at), updatedAt: iso(t.updated_at), name: t.name, deletedAt: iso(t.deleted_at), folderId: t.folder_id === null ? null : String(t.folder_id), workspaceId: String(t.workspace_id) })),
    contactCustomFields: valuesOf(Number(r.id)).map((v) => ({ id: String(v.id), createdAt: iso(v.created_at), updatedAt: iso(v.updated_at), value: v.value, contactId: String(v.contact_id), customFieldId: String(v.custom_field_id) })),
  }));
  return { data, pageCount: Math.ceil(total / 50) };
}

// POST /v1/contacts/search with {tag hasAny, number field >= 3, email not empty}: the plain form of
// the search (the API's compiler picks a cheaper plan on SQLite); compared by ids and count.
const searchWhere = `workspace_id = ? and (contacts.id in (select l.contact_id from contact_tags l where l.tag_id in (?) and l.workspace_id = ?)
  and contacts.id in (select v.contact_id from contact_custom_fields v where v.workspace_id = ? and v.custom_field_id = ? and cast(v.value as ${bySql('real', 'double precision')}) >= ?)
  and (contacts.email is not null and contacts.email <> ''))`;
const searchCountSql = `select count(*) as "n" from contacts where ${searchWhere}`;
const searchPageSql = `select ${contactColumns} from contacts where ${searchWhere} order by created_at desc, id desc limit 50 offset 0`;
async function search(tag: number, field: number) {
  const args = [workspaceId, tag, workspaceId, workspaceId, field, 3];
  const total = Number((await query('search-count', searchCountSql, args))[0].n);
  return { data: (await query('search-page', searchPageSql, args)).map(contactJson), pageCount: Math.ceil(total / 50) };
}

// ---- The nested GraphQL page (graphql.cases.ts, nestedContactsQuery): the API's 11 statements.

// The page selects only what a listing holds, so the API reads listings (src/graphql/listing.ts).
const listingColumns = '"id", "workspace_id", "avatar", "phone_number", "email", "first_name", "last_name", "created_at", "updated_at"';
const nestedPageSql = `select ${listingColumns} from "contacts" where "workspace_id" = ? order by "created_at" desc, "id" desc limit ?`;
const sequencesOfSql =
  `select "q"."id" as "sequence_id", "q"."name", "s"."contact_id" from "sequence_subscriptions" as "s" inner join "sequences" as "q" on "q"."id" = "s"."sequence_id" where +"s"."workspace_id" = ? and +"q"."workspace_id" = ? and ${inIds('"s"."contact_id"')} order by "s"."id"`;
const notesOfSql =
  `select "n"."id", "n"."created_at", "n"."updated_at", "n"."text", "n"."contact_id", "u"."id" as "created_by_id" from "contact_notes" as "n" left join "users" as "u" on "u"."id" = "n"."created_by_id" and +"u"."workspace_id" = ? where +"n"."workspace_id" = ? and ${inIds('"n"."contact_id"')} order by "n"."created_at", "n"."id"`;
const inboxesOfSql =
  `select "m"."id", "m"."contact_id", "m"."inbox_id", "m"."channel" from "contact_inboxes" as "m" inner join "inboxes" as "i" on "i"."id" = "m"."inbox_id" where +"m"."workspace_id" = ? and +"i"."workspace_id" = ? and ${inIds('"m"."contact_id"')} order by "m"."id"`;
// Its tags and conversations as listings too (contact.type.ts): the columns the page shows.
const tagListingsOfSql = tagsOfContactsSql('"t"."id", "t"."name"');
const conversationListingColumns =
  '"conversations"."id", "conversations"."workspace_id", "conversations"."contact_id", "conversations"."followed", "conversations"."bot_enabled", "conversations"."archived_at", "conversations"."last_activity_at"';
const conversationsOfSql =
  `select ${conversationListingColumns}, (select "i"."id" from "inboxes" as "i" where "i"."id" = "conversations"."inbox_id" and +"i"."workspace_id" = ?) as "scoped_inbox_id", (select "u"."id" from "users" as "u" where "u"."id" = "conversations"."assigned_user_id" and +"u"."workspace_id" = ?) as "scoped_user_id", (select "t"."id" from "inbox_teams" as "t" where "t"."id" = "conversations"."assigned_inbox_team_id" and +"t"."workspace_id" = ?) as "scoped_team_id" from "conversations" where (select c.workspace_id = ? from contacts as c where c.id = conversations.contact_id) and +"conversations"."workspace_id" = ? and ${inIds('"conversations"."contact_id"')} order by "conversations"."id" desc`;
const byIdsSql = (table: string) => `select * from "${table}" where "workspace_id" = ? and ${inIds('"id"')}`;

/** Rows of `table` by id, one statement for the distinct ids in first-seen order (a DataLoader's batch). */
async function loadByIds(table: string, ids: unknown[]): Promise<Map<number, Row>> {
  const keys = [...new Set(ids.filter((id) => id !== null && id !== undefined).map(Number))];
  if (keys.length === 0) return new Map();
  const rows = await query(`${table}-by-ids`, byIdsSql(table), [workspaceId, idsParam(keys)]);
  return new Map(rows.map((r) => [Number(r.id), r]));
}

async function nestedPage(first: number) {
  const rows = await query('nested-page', nestedPageSql, [workspaceId, first + 1]);
  const page = rows.slice(0, first);
  const ids = page.map((r) => Number(r.id));
  const w = workspaceId;
  const list = idsParam(ids);
  // The API's loaders run these as one batch each, in this order.
  const fieldsOf = await fieldValues(ids);
  const sequencesOf = byContact(await query('nested-sequences', sequencesOfSql, [w, w, list]));
  const tagsOf = byContact(await query('nested-tags', tagListingsOfSql, [w, w, list]));
  const notesOf = byContact(await query('nested-notes', notesOfSql, [w, w, list]));
  const memberships = await query('nested-inboxes', inboxesOfSql, [w, w, list]);
  const conversations = await query('nested-conversations', conversationsOfSql, [w, w, w, w, w, list]);
  // The API loads inboxes twice (one batch for the contacts' inboxes, one for their conversations'), as here.
  const memberInboxes = await loadByIds('inboxes', memberships.map((m) => m.inbox_id));
  const conversationInboxes = await loadByIds('inboxes', conversations.map((c) => c.scoped_inbox_id));
  const users = await loadByIds('users', conversations.map((c) => c.scoped_user_id));
  const teams = await loadByIds('inbox_teams', conversations.map((c) => c.scoped_team_id));
  const membershipsOf = byContact(memberships);
  const conversationsOf = byContact(conversations);

  const edges = page.map((r) => {
    const id = Number(r.id);
    return {
      node: {
        id: globalId('Contact', id),
        rawId: String(id),
        fullName: [r.first_name, r.last_name].filter(Boolean).join(' '),
        email: r.email,
        phoneNumber: r.phone_number,
        createdAt: iso(r.created_at),
        customFields: fieldsOf(id).map((f) => ({ rawId: String(f.id), name: f.name, value: f.value ?? '', type: f.type })),
        sequences: sequencesOf(id).map((s) => ({ sequenceId: String(s.sequence_id), sequenceName: s.name })),
        tags: tagsOf(id).map((t) => ({ id: globalId('Tag', t.id), name: t.name })),
        notes: notesOf(id).map((note) => ({ id: globalId('ContactNote', note.id), text: note.text, createdAt: iso(note.created_at) })),
        inboxes: membershipsOf(id).map((m) => {
          const inbox = memberInboxes.get(Number(m.inbox_id));
          return { id: globalId('ContactInbox', m.id), channel: m.channel, inbox: inbox ? { id: globalId('Inbox', inbox.id), name: inbox.name, channel: inbox.channel, status: inbox.status } : null };
        }),
        conversations: conversationsOf(id).map((c) => {
          const inbox = c.scoped_inbox_id === null ? undefined : conversationInboxes.get(Number(c.scoped_inbox_id));
          const user = c.scoped_user_id === null ? undefined : users.get(Number(c.scoped_user_id));
          const team = c.scoped_team_id === null ? undefined : teams.get(Number(c.scoped_team_id));
          return {
            id: globalId('Conversation', c.id),
            followed: bool(c.followed),
            lastActivityAt: iso(c.last_activity_at),
            inbox: inbox ? { id: globalId('Inbox', inbox.id), name: inbox.name } : null,
            assignedUser: user ? { id: globalId('User', user.id), name: user.name, email: user.email } : null,
            assignedInboxTeam: team ? { id: globalId('InboxTeam', team.id), name: team.name } : null,
          };
        }),
      },
    };
  });
  const last = page.at(-1);
  const endCursor = last ? Buffer.from(`contact:${iso(last.created_at)}|${last.id}`).toString('base64url') : null;
  return { data: { contacts: { edges, pageInfo: { hasNextPage: rows.length > first, endCursor } } } };
}

// ---- The server.

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

async function answer(method: string, path: string, params: URLSearchParams, body: string): Promise<[number, unknown]> {
  if (path === '/tags') return [200, await tags()];
  const m = /^\/contacts\/(\d+)\/custom-fields$/.exec(path);
  if (m) {
    const found = await customFields(Number(m[1]));
    return found ? [200, found] : [404, { error: 'not found' }];
  }
  if (path === '/dynamic-images') return [200, await dynamicImages(params.get('name') ?? '')];
  if (path === '/error-logs') return [200, await errorLogs(params.get('keyword') ?? '')];
  if (path === '/contacts') return [200, await contactsPage()];
  if (path === '/contacts/search') return [200, await search(Number(params.get('tag')), Number(params.get('field')))];
  if (path === '/graphql' && method === 'POST') {
    // Only the bench's nested page: its `first` is read from the variables, the query is not parsed.
    const first = Number((JSON.parse(body) as { variables?: { first?: number } }).variables?.first ?? 50);
    return [200, await nestedPage(first)];
  }
  return [404, { error: 'not found' }];
}

// Exit on SIGTERM as the API does, so that a profile asked for with --cpu-prof is written (V8
// writes it on exit, not when a signal kills the process).
process.on('SIGTERM', () => process.exit(0));

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url!, 'http://x');
    answer(req.method ?? 'GET', url.pathname, url.searchParams, Buffer.concat(chunks).toString()).then(
      ([status, body]) => send(res, status, body),
      (err: unknown) => send(res, 500, { error: String(err) }),
    );
  });
}).listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', function (this: import('node:http').Server) {
  const a = this.address() as { port: number };
  console.log(`baseline (${engine}) listening on http://127.0.0.1:${a.port}`);
});
