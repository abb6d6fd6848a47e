import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { escapeHtml, htmlPage, type HtmlPage } from '../../http/html-pages.js';
import type { Answer } from '../../http/exchange.js';

/**
 * The pages around the OpenAPI document: the interactive reference at /docs (Scalar's standalone
 * bundle, served by this server) and the index at /. Nothing on them is fetched from another host.
 */

export const pagePaths = {
  index: '/',
  app: '/app/',
  docs: '/docs',
  docsStatic: '/docs/static',
  scalarBundle: '/docs/assets/scalar-standalone.js',
  graphiql: '/graphql',
  openapi: '/v1/openapi.json',
  healthz: '/healthz',
  readyz: '/readyz',
} as const;

const require = createRequire(import.meta.url);
const scalarBundlePath = require.resolve('@scalar/api-reference/browser/standalone.js');
/** dist/browser/standalone.js -> the package's own package.json (not exported). */
const scalarVersion = (JSON.parse(readFileSync(join(dirname(scalarBundlePath), '../../package.json'), 'utf8')) as { version: string }).version;

/**
 * zod (inside Scalar's bundle) probes whether `new Function` works to decide whether to compile
 * its parsers; under this page's policy (no 'unsafe-eval') the probe fails, as intended, but the
 * browser reports it as a CSP violation. The answer is known in advance, so the bundle is served
 * with the probe answered: zod takes its no-eval path at once and nothing is reported. (If an
 * upgrade changes the probe, the browser test sees the violation again.)
 */
const evalProbe = 'try{return new Function(""),!0}catch(e){return!1}';
export const withoutEvalProbe = (source: string) => source.split(evalProbe).join('return!1');

/** Scalar's standalone browser bundle (3 MB), read on first use. */
let bundle: Buffer | undefined;
export function scalarBundleAnswer(): Answer {
  bundle ??= Buffer.from(withoutEvalProbe(readFileSync(scalarBundlePath, 'utf8')), 'utf8');
  return {
    status: 200,
    headers: {
      'content-type': 'application/javascript; charset=utf-8',
      // The page asks for it with the package version in the query, so an upgrade is a new URL.
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    },
    body: bundle,
  };
}

const esc = escapeHtml;

/**
 * Scalar's configuration: the document from this server, curl as the first example, and nothing
 * from elsewhere: no default fonts (fonts.scalar.com), no request proxy (proxy.scalar.com; "try it"
 * calls this server directly), no telemetry.
 */
const scalarConfiguration = {
  url: pagePaths.openapi,
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: '',
  // The toolbar's Share and Generate SDKs talk to scalar.com.
  showDeveloperTools: 'never',
  showOperationId: true,
  defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
  documentDownloadType: 'json',
  persistAuth: false,
  metaData: { title: 'Messaging API reference' },
};

export function interactiveReferencePage(): HtmlPage {
  // `<` cannot end the script early: JSON.stringify leaves it as is, so escape it.
  const config = JSON.stringify(scalarConfiguration).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Messaging API reference</title>
<style>
body{margin:0}
.links{font:13px/1.4 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;padding:.4rem 1rem;background:#f6f8fa;border-bottom:1px solid #d0d7de}
.links a{color:#0969da}
</style>
</head>
<body>
<p class="links">Messaging API · interactive reference · <a href="${pagePaths.docsStatic}">Script-free reference</a> · <a href="${pagePaths.graphiql}">GraphiQL</a> · <a href="${pagePaths.openapi}">OpenAPI document</a></p>
<noscript><p>This reference needs JavaScript; the <a href="${pagePaths.docsStatic}">script-free reference</a> has the same operations, examples and curl commands.</p></noscript>
<div id="app"></div>
<script src="${pagePaths.scalarBundle}?v=${esc(scalarVersion)}"></script>
<script>Scalar.createApiReference('#app', ${config});</script>
</body>
</html>
`;
  return htmlPage(html, {
    'script-src': ["'self'"],
    // Scalar injects its CSS as <style> elements and sets style attributes at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    // The document, and requests made with "Test request", go to this server only.
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
  });
}

const indexLinks = {
  app: pagePaths.app,
  docs: pagePaths.docs,
  docsStatic: pagePaths.docsStatic,
  graphql: pagePaths.graphiql,
  openapi: pagePaths.openapi,
  healthz: pagePaths.healthz,
  readyz: pagePaths.readyz,
};

const indexDescriptions: Record<keyof typeof indexLinks, string> = {
  app: 'Contacts inbox: the example web app on the GraphQL API (paste a workspace API token)',
  docs: 'API reference (interactive: examples, curl, try requests)',
  docsStatic: 'API reference without scripts',
  graphql: 'GraphQL endpoint; GraphiQL in a browser',
  openapi: 'OpenAPI 3.1 document of the REST API under /v1',
  healthz: 'Liveness probe',
  readyz: 'Readiness probe (database)',
};

export const indexDocument = { name: 'Messaging API', links: indexLinks };

export function indexPage(): HtmlPage {
  const items = Object.entries(indexLinks)
    .map(([key, href]) => `<li><a href="${href}">${href}</a>: ${esc(indexDescriptions[key as keyof typeof indexLinks])}</li>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Messaging API</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:40rem;padding:0 1rem;color:#1f2328}
a{color:#0969da}code{font:13px ui-monospace,Menlo,monospace;background:#f6f8fa;padding:0 .25em;border-radius:4px}
</style>
</head>
<body>
<h1>Messaging API</h1>
<p>REST under <code>/v1</code> and GraphQL at <code>/graphql</code>; every call needs a token (<code>npm start</code> prints the demo workspace's tokens).</p>
<ul>
${items}
</ul>
</body>
</html>
`;
  return htmlPage(html, {}, { hashStyles: true });
}
