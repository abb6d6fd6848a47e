// A bare node:http + better-sqlite3 server running the same SQL as the API for the benchmarked
// reads, with no framework, authentication, validation or logging: the floor the API is compared to.
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { workspaceTrigramQuery } from '../src/db/search.js';
import { likeContains } from '../src/db/values.js';

const db = new Database(process.env.DATABASE_URL!, { readonly: true });
db.pragma('journal_mode = WAL');
const workspaceId = Number(process.env.BENCH_WORKSPACE_ID);

const tags = db.prepare('select id, name from tags where workspace_id = ? and deleted_at is null order by lower(name), id');
const fields = db.prepare(`select f.id, f.name, f.description, f.type, v.value from contacts c
  join custom_fields f on f.workspace_id = c.workspace_id
  left join contact_custom_fields v on v.contact_id = c.id and v.custom_field_id = f.id
  where +c.workspace_id = ? and c.id = ? order by f.id`);
const imagesCount = db.prepare(`select count(*) n from dynamic_images where workspace_id = ? and name like ? escape '\\'`);
const images = db.prepare(`select * from dynamic_images where workspace_id = ? and name like ? escape '\\' order by created_at desc, id desc limit ? offset ?`);
const logsCount = db.prepare(`select count(*) n from error_logs where +workspace_id = ? and id in (select rowid from error_logs_search where error_logs_search match ?) and (detail like ? escape '\\' or action like ? escape '\\')`);
const logs = db.prepare(`select * from error_logs where +workspace_id = ? and id in (select rowid from error_logs_search where error_logs_search match ?) and (detail like ? escape '\\' or action like ? escape '\\') order by created_at desc, id desc limit ? offset ?`);

// GET /v1/contacts?include=tags,customFields: the count, a page of 50 newest first, its tags and values.
const contactColumns = 'id, workspace_id, avatar, phone_number, email, first_name, last_name, ref, country, state, city, location, locale, timezone, gender, email_verified, email_opt_in, last_read_at, subscribed_at, broadcast_subscribed_at, blocked_at, created_at, updated_at';
const contactsCount = db.prepare('select count(*) n from contacts where workspace_id = ? and 1 = 1');
const contactsPage = db.prepare(`select ${contactColumns} from contacts where workspace_id = ? and 1 = 1 order by created_at desc, id desc limit 50 offset 0`);
const tagsOf = (ids: number[]) =>
  db.prepare(`select t.*, ct.contact_id from contact_tags ct join tags t on t.id = ct.tag_id where +ct.workspace_id = ? and +t.workspace_id = ? and ct.contact_id in (${ids.map(() => '?').join(',')}) and t.deleted_at is null order by t.name`).all(workspaceId, workspaceId, ...ids);
const valuesOf = (ids: number[]) =>
  db.prepare(`select v.id, v.created_at, v.updated_at, v.value, v.contact_id, v.custom_field_id from contact_custom_fields v join custom_fields f on f.id = v.custom_field_id where +v.workspace_id = ? and +f.workspace_id = ? and v.contact_id in (${ids.map(() => '?').join(',')}) order by v.custom_field_id`).all(workspaceId, workspaceId, ...ids);
// POST /v1/contacts/search with {tag hasAny, number field >= 3, email not empty}: the SQL our compiler writes.
const searchWhere = `workspace_id = ? and (contacts.id in (select l.contact_id from contact_tags l where l.tag_id in (?) and +l.workspace_id = ?)
  and contacts.id in (select v.contact_id from contact_custom_fields v where v.workspace_id = ? and v.custom_field_id = ? and cast(v.value as real) >= ?)
  and (contacts.email is not null and contacts.email <> ''))`;
const searchCount = db.prepare(`select count(*) n from contacts where ${searchWhere}`);
const searchPage = db.prepare(`select ${contactColumns} from contacts where ${searchWhere} order by created_at desc, id desc limit 50 offset 0`);

const contactJson = (r: any) => ({
  ...r,
  id: String(r.id),
  workspaceId: String(r.workspace_id),
  fullName: [r.first_name, r.last_name].filter(Boolean).join(' '),
  emailVerified: r.email_verified === 1,
  emailOptIn: r.email_opt_in === 1,
});

const send = (res: import('node:http').ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  const p = url.pathname;
  if (p === '/tags') return send(res, { data: tags.all(workspaceId) });
  const m = /^\/contacts\/(\d+)\/custom-fields$/.exec(p);
  if (m) return send(res, { data: (fields.all(workspaceId, Number(m[1])) as any[]).map((r) => ({ ...r, id: String(r.id), value: r.value ?? '' })) });
  if (p === '/dynamic-images') {
    const like = `%${url.searchParams.get('name') ?? ''}%`;
    const total = (imagesCount.get(workspaceId, like) as { n: number }).n;
    const rows = (images.all(workspaceId, like, 50, 0) as any[]).map((r) => ({ ...r, data: JSON.parse(r.data) }));
    return send(res, { data: rows, pageCount: Math.ceil(total / 50) });
  }
  if (p === '/contacts') {
    const total = (contactsCount.get(workspaceId) as { n: number }).n;
    const rows = contactsPage.all(workspaceId) as any[];
    const ids = rows.map((r) => r.id);
    const tags = tagsOf(ids) as any[];
    const values = valuesOf(ids) as any[];
    const data = rows.map((r) => ({
      ...contactJson(r),
      tags: tags.filter((t) => t.contact_id === r.id).map((t) => ({ id: String(t.id), name: t.name })),
      contactCustomFields: values.filter((v) => v.contact_id === r.id).map((v) => ({ ...v, id: String(v.id) })),
    }));
    return send(res, { data, pageCount: Math.ceil(total / 50) });
  }
  if (p === '/contacts/search') {
    const args = [workspaceId, Number(url.searchParams.get('tag')), workspaceId, workspaceId, Number(url.searchParams.get('field')), 3];
    const total = (searchCount.get(...args) as { n: number }).n;
    return send(res, { data: (searchPage.all(...args) as any[]).map(contactJson), pageCount: Math.ceil(total / 50) });
  }
  if (p === '/error-logs') {
    const keyword = url.searchParams.get('keyword') ?? '';
    const query = workspaceTrigramQuery(workspaceId, keyword);
    const like = likeContains(keyword);
    const total = (logsCount.get(workspaceId, query, like, like) as { n: number }).n;
    return send(res, { data: logs.all(workspaceId, query, like, like, 50, 0), pageCount: Math.ceil(total / 50) });
  }
  res.writeHead(404).end();
}).listen(0, '127.0.0.1', function (this: import('node:http').Server) {
  const a = this.address() as { port: number };
  console.log(`baseline listening on http://127.0.0.1:${a.port}`);
});
