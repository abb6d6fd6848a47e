import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { curlExample } from '../src/rest/reference/openapi.js';
import { routes } from '../src/rest/routes/index.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { createTestApp, type TestApp } from './support/harness.js';

/**
 * The HTML pages (GraphiQL, /docs, /docs/static, the index at /): served from this server with
 * nothing from another host, each with a Content-Security-Policy that allows its inline scripts by
 * hash only; / answers a small index (HTML for a browser, JSON otherwise) without a token.
 */

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const directives = (csp: string | null) =>
  Object.fromEntries((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));

/**
 * Every place an HTML page makes the browser fetch something: element attributes, CSS url() and
 * @import. (Bundled libraries also hold URL strings that are never fetched, such as the SVG
 * namespace; the browser test records every request the pages really make.)
 */
const fetchedUrls = (html: string) => [
  ...[...html.matchAll(/\b(?:src|href|action|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((m) => m[1]),
  ...[...html.matchAll(/url\(\s*["']?([^"')\s]+)/gi)].map((m) => m[1]),
  ...[...html.matchAll(/@import\s+["']([^"']+)/gi)].map((m) => m[1]),
];
const external = (url: string) => /^(?:[a-z][a-z\d+.-]*:)?\/\//i.test(url) && !/^(data|blob):/i.test(url);
const cdnHosts = /unpkg\.com|cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com|esm\.sh|fonts\.googleapis\.com|fonts\.scalar\.com|raw\.githubusercontent\.com/;

describe('HTML pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
  });
  afterAll(() => t.close());

  it('GraphiQL comes from the package: no resource from another host, its inline script allowed by hash, headers not persisted', async () => {
    const res = await t.request('GET', '/graphql', { headers: browser });
    expect(res.status).toBe(200);
    expect(fetchedUrls(res.text).filter(external)).toEqual([]);
    expect(res.text).not.toMatch(cdnHosts);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'none'"]);
    const scripts = inlineScripts(res.text);
    expect(scripts).toHaveLength(1);
    expect(csp['script-src']).toEqual(["'self'", sha256(scripts[0])]);
    expect(csp['worker-src']).toEqual(["'self'", 'blob:']);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(res.text).toContain('"shouldPersistHeaders":false');
  });

  it('GRAPHIQL_PERSIST_HEADERS=true lets GraphiQL keep the headers; it is validated like the other booleans', async () => {
    const persisting = await createTestApp({ ...unlimited, GRAPHIQL_PERSIST_HEADERS: 'true' });
    try {
      const res = await persisting.request('GET', '/graphql', { headers: browser });
      expect(res.text).toContain('"shouldPersistHeaders":true');
    } finally {
      await persisting.close();
    }
    expect(loadConfig({}).GRAPHIQL_PERSIST_HEADERS).toBe(false);
    expect(() => loadConfig({ GRAPHIQL_PERSIST_HEADERS: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ GRAPHIQL_PERSIST_HEADERS: 'maybe' })).toThrow('GRAPHIQL_PERSIST_HEADERS: must be true or false (got "maybe")');
  });

  it('/docs is the interactive reference: Scalar from this server, configured to fetch nothing from elsewhere', async () => {
    const res = await t.request('GET', '/docs', { headers: browser });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).toMatch(/<script src="\/docs\/assets\/scalar-standalone\.js\?v=[\d.]+"><\/script>/);
    expect(res.text).toContain('href="/docs/static"');
    const [config] = inlineScripts(res.text);
    expect(JSON.parse(/createApiReference\('#app', (.*)\);$/.exec(config)![1])).toMatchObject({
      url: '/v1/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      proxyUrl: '',
      showDeveloperTools: 'never',
    });
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp['script-src']).toEqual(["'self'", sha256(config)]);
    expect(csp['connect-src']).toEqual(["'self'"]);

    const bundle = await t.app.fetch(new Request('http://localhost/docs/assets/scalar-standalone.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await bundle.text()).length).toBeGreaterThan(1_000_000);
  });

  it('/docs/static has no script, links to /docs, and shows a curl command and examples for every operation', async () => {
    const res = await t.request('GET', '/docs/static', { headers: browser });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script');
    expect(res.text).toContain('<a href="/docs">Interactive reference</a>');
    expect(res.text).toContain('<a href="/graphql">GraphiQL</a>');
    expect(res.text).toContain('id="getting-a-token"');
    expect(fetchedUrls(res.text).filter(external)).toEqual([]);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['script-src']).toBeUndefined();
    expect(csp['style-src']).toEqual([sha256(/<style>([\s\S]*?)<\/style>/.exec(res.text)![1])]);
    // Narrow screens: the nav stacks above the content, tables scroll sideways.
    expect(res.text).toMatch(/@media \(max-width:800px\)\{\nbody\{display:block\}/);
    const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
    const missing = routes.filter((route) => !res.text.includes(`<pre class="curl"><code>${esc(curlExample(route))}</code></pre>`));
    expect(missing.map((r) => r.operationId)).toEqual([]);
    expect((res.text.match(/<h4>Example response \(\d+\)<\/h4>/g) ?? []).length).toBe(routes.length);
  });

  it('/docs/static shows every webhook of the document: its headers (or that it is unsigned), its body fields and its example body', async () => {
    const res = await t.request('GET', '/docs/static', { headers: browser });
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
    expect(res.text).toContain('<h2 id="webhooks">Webhooks</h2>');
    const webhooks = Object.entries(doc.webhooks as Record<string, any>);
    expect(webhooks.length).toBeGreaterThan(0);
    for (const [name, item] of webhooks) {
      expect(res.text, name).toContain(`<li><a href="#webhook-${name}">`);
      const section = new RegExp(`<section class="op" id="webhook-${name}">([\\s\\S]*?)</section>`).exec(res.text)?.[1] ?? '';
      const content = item.post.requestBody.content['application/json'];
      expect(section, name).toContain(`<pre><code>${esc(JSON.stringify(content.examples.example.value, null, 2))}</code></pre>`);
      const fields = Object.keys(doc.components.schemas[content.schema.$ref.split('/').pop()].properties);
      for (const field of fields) expect(section, `${name} ${field}`).toContain(`<td><code>${field}</code></td>`);
      if (item.post.parameters) for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) expect(section, name).toContain(`<td><code>${header}</code></td>`);
      else expect(section, name).toContain('Unsigned: no <code>webhook-*</code> headers.');
    }
  });

  it('GET / is an index of the public pages: HTML for a browser, JSON otherwise, no token, counted by the IP budget', async () => {
    const links = { app: '/app/', docs: '/docs', docsStatic: '/docs/static', graphql: '/graphql', openapi: '/v1/openapi.json', healthz: '/healthz', readyz: '/readyz' };
    const json = await t.request('GET', '/');
    expect([json.status, json.headers.get('content-type'), json.body]).toEqual([200, 'application/json; charset=utf-8', { name: 'Messaging API', links }]);
    expect(json.headers.get('vary')).toMatch(/Accept/);
    expect(json.headers.get('ratelimit-limit')).toBe(unlimited.RATE_LIMIT_IP_POINTS);

    const html = await t.request('GET', '/', { headers: browser });
    expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    for (const href of Object.values(links)) expect(html.text).toContain(`<a href="${href}">`);
    expect(html.text).not.toContain('<script');
    expect(directives(html.headers.get('content-security-policy'))['default-src']).toEqual(["'none'"]);

    for (const path of ['/', '/docs/static', '/docs/assets/scalar-standalone.js']) {
      const wrong = await t.request('POST', path, { body: {} });
      expect([path, wrong.status, wrong.headers.get('allow')]).toEqual([path, 405, 'GET, HEAD']);
    }
  });
});

/**
 * /app/ serves the contacts web app's committed production build (examples/contacts-web/dist)
 * without a token: the page under a policy that allows this origin only and no inline script,
 * hashed assets cacheable for good, anything else 404 in the contract's envelope.
 */
describe('the web app at /app/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(unlimited);
  });
  afterAll(() => t.close());

  it('/app redirects to /app/, whose page loads its script and stylesheet from this origin under a policy with no inline script', async () => {
    const bare = await t.request('GET', '/app');
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/app/']);

    const page = await t.request('GET', '/app/');
    expect([page.status, page.headers.get('content-type'), page.headers.get('cache-control')]).toEqual([200, 'text/html; charset=utf-8', 'no-cache']);
    expect(inlineScripts(page.text)).toEqual([]);
    const csp = directives(page.headers.get('content-security-policy'));
    expect(csp).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'connect-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'frame-ancestors': ["'none'"],
    });

    const assets = [...page.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => a.split('.').pop()).sort()).toEqual(['css', 'js']);
    for (const path of assets) {
      const asset = await t.request('GET', path);
      expect([path, asset.status, asset.headers.get('cache-control')]).toEqual([path, 200, 'public, max-age=31536000, immutable']);
      expect(asset.headers.get('content-type')).toMatch(path.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    }
  });

  it('an unknown file is 404 in the envelope; a POST is 405', async () => {
    const missing = await t.request('GET', '/app/assets/nothing.js');
    expect([missing.status, missing.body.code]).toEqual([404, envelopes.notFound.code]);
    const post = await t.request('POST', '/app/', { body: {} });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('without a build, /app/ says how to make one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'msgapi-noapp-'));
    const other = await createTestApp({ ...unlimited, WEB_APP_DIR: empty });
    try {
      const res = await other.request('GET', '/app/');
      expect([res.status, res.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
      expect(res.text).toContain('npm --prefix examples/contacts-web ci &amp;&amp; npm --prefix examples/contacts-web run build');
    } finally {
      await other.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
