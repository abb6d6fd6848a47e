import { createRequire } from 'node:module';
import type { GraphiQLOptions } from 'graphql-yoga';
import type { Config } from '../config/config.js';
import { htmlPage, type HtmlPage } from './html-pages.js';

/**
 * GraphiQL served from the package (@graphql-yoga/render-graphiql: GraphiQL, its CSS, fonts and
 * Monaco's workers inlined in one page), so it loads nothing from another host and works offline.
 * The page is rendered once; its inline script's SHA-256 goes into the page's
 * Content-Security-Policy.
 */

export const graphiqlExampleQuery = `# Every call needs a token: set the Authorization header in the Headers tab below,
#   {"Authorization": "Bearer mdev_..."}   (a workspace API token or a user access token)
# Where tokens come from:
#   npm start                 prints the demo workspace's two tokens (mdev_... and musr_...)
#   npm run --silent cli -- token create --workspace 1 --kind developer --json
#   npm run --silent cli -- workspace create --name "Acme" --json   (new workspace, one token of each kind)
# Headers typed here are not saved in this browser unless the server sets GRAPHIQL_PERSIST_HEADERS=true.

query ContactWithEverything {
  contacts(first: 5) {
    edges {
      node {
        id
        fullName
        email
        tags { id name }
        customFields { name value type }
        sequences { sequenceId sequenceName }
        notes { text createdAt }
        inboxes { channel inbox { name status } }
        conversations { followed inbox { name } assignedUser { name } assignedInboxTeam { name } }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

export const graphiqlHeadersPlaceholder = 'Bearer <paste a token here: npm start prints the demo tokens>';

/**
 * Why the example used to give way to GraphiQL's generic welcome text: the CDN build Yoga's default
 * page loaded (@graphql-yoga/graphiql 4.5.1) passed its welcome text to GraphiQL as the initial
 * `query`, which wins over `defaultQuery` (graphql-yoga#3979). The packaged 5.x wrapper passes no
 * initial query when `defaultQuery` is set, so the example is the first tab of a browser with no
 * GraphiQL state for this origin. Tabs GraphiQL stored earlier (localStorage) still win, by design,
 * as does `?query=` in the URL (the wrapper mirrors the editor there).
 */
export function graphiqlOptions(config: Pick<Config, 'GRAPHIQL_PERSIST_HEADERS'>): GraphiQLOptions {
  const headers = JSON.stringify({ Authorization: graphiqlHeadersPlaceholder }, null, 2);
  return {
    title: 'Messaging API · GraphiQL',
    defaultQuery: graphiqlExampleQuery,
    headers,
    shouldPersistHeaders: config.GRAPHIQL_PERSIST_HEADERS,
  };
}

/** Policy of the GraphiQL page: its one inline script by hash; Monaco's workers from blob: URLs. */
const graphiqlPolicy = {
  'script-src': ["'self'"],
  // React and Monaco set inline styles at run time; the page's own CSS is one <style> element.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
};

/**
 * The renderer, loaded on first use: its module is GraphiQL's whole bundle, which took a good share
 * of a server's memory whether GraphiQL was on or not (off in production by default).
 */
let renderer: typeof import('@graphql-yoga/render-graphiql').renderGraphiQL | undefined;
const renderGraphiQL = () => (renderer ??= (createRequire(import.meta.url)('@graphql-yoga/render-graphiql') as typeof import('@graphql-yoga/render-graphiql')).renderGraphiQL);

/** Rendering is a 9 MB string and a hash: done once per set of options, shared by every app. */
const rendered = new Map<string, HtmlPage>();

export function graphiqlPage(options: GraphiQLOptions): HtmlPage {
  const key = JSON.stringify(options);
  let page = rendered.get(key);
  if (!page) {
    page = htmlPage(renderGraphiQL()(options), graphiqlPolicy);
    rendered.set(key, page);
  }
  return page;
}
