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
