import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors/catalogue.js';
import { escapeHtml, htmlHeaders, htmlPage, inlineScripts } from '../http/html-pages.js';
import type { Answer, Incoming } from '../http/exchange.js';
import { etagOf } from '../http/response-headers.js';
import type { PublicRoutes } from './system.routes.js';

/**
 * The contacts web app (examples/contacts-web), served from its production build at /app/ on the
 * API's own origin, so that it needs no CORS and its token never leaves this origin. Its policy
 * lets it load scripts, styles and images from this origin only and talk to this origin only; an
 * inline script would be refused (the build has none: the test checks the page).
 */
export const WEB_APP_PATH = '/app/';

/** Where the build is: WEB_APP_DIR, or the example's dist/ beside src/ (or beside dist/src/ once compiled). */
export function webAppDirectory(configured: string | undefined): string {
  if (configured) return resolve(configured);
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = ['../..', '../../..'].map((up) => resolve(here, up, 'examples/contacts-web/dist'));
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[0]!;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The app's policy: its own origin for everything it loads or calls, and nothing else. */
const appPolicy = {
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
};

interface Built {
  /** Files by their path under /app/ ('' is the page). */
  files: Map<string, Answer>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Every file of the build, read once: it is a few hundred kilobytes and does not change while the
 * process runs. Hashed assets (assets/name-hash.js) may be cached for good; the page and the other
 * files are revalidated (their ETag makes that a 304).
 */
function load(dir: string): Built {
  const files = new Map<string, Answer>();
  for (const path of filesUnder(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    const type = contentTypes[extname(name)] ?? 'application/octet-stream';
    const cache = name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    if (name === 'index.html') {
      const page = htmlPage(readFileSync(path, 'utf8'), appPolicy);
      if (inlineScripts(page.html).length > 0) throw new Error(`${path} has an inline script; the app's policy allows none`);
      files.set('', { status: 200, headers: { ...htmlHeaders(page), 'cache-control': cache }, body: page.html });
    } else {
      const body = readFileSync(path);
      // Its validator once, here: the platform would hash the 300 KB script again on every request.
      files.set(name, { status: 200, headers: { 'content-type': type, 'cache-control': cache, etag: etagOf(body) }, body });
    }
  }
  return { files };
}

/** A copy: the platform adds headers (ETag, encoding) to the answer it sends. */
const copy = (answer: Answer): Answer => ({ ...answer, headers: { ...answer.headers } });

export function webAppRoutes(configuredDir: string | undefined): PublicRoutes {
  const dir = webAppDirectory(configuredDir);
  let built: Built | undefined;
  // A browser asked for a page: it gets one that says how to make the build.
  const notBuilt = htmlPage(`<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Web app not built</title></head>
<body><h1>The web app is not built</h1>
<p>There is no <code>${escapeHtml(join(dir, 'index.html'))}</code>. Build it with
<code>npm --prefix examples/contacts-web ci &amp;&amp; npm --prefix examples/contacts-web run build</code>, or point WEB_APP_DIR at a build.</p>
</body></html>
`);
  return {
    // The app's relative asset paths need the trailing slash.
    [WEB_APP_PATH.slice(0, -1)]: () => ({ status: 308, headers: { location: WEB_APP_PATH, 'cache-control': 'no-cache' }, body: null }),
    [`${WEB_APP_PATH}*`]: (request: Incoming) => {
      if (!built) {
        if (!existsSync(join(dir, 'index.html'))) return { status: 404, headers: { ...htmlHeaders(notBuilt), 'cache-control': 'no-cache' }, body: notBuilt.html };
        built = load(dir);
      }
      const file = built.files.get(request.path.slice(WEB_APP_PATH.length));
      if (!file) throw new AppError('notFound', { data: { resource: 'File', path: request.path } });
      return copy(file);
    },
  };
}
