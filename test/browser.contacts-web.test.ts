import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { freshDatabaseUrl, testEngine, type TestDatabaseUrl } from './support/engine.js';
import { repoRoot, runCli, startServer, type RunningServer } from './support/processes.js';

/**
 * The contacts web app (examples/contacts-web, served by the API at /app/) in a real browser:
 * Debian's chromium driven by playwright-core, against `npm start` on a fresh database with the
 * demo data. Every request the page makes is recorded: a page of the app is one GraphQL query,
 * the live strip one event stream, and nothing is asked of another origin. Every wait is for a
 * fact on the page (a selector, a response), never for a fixed time.
 */

/** Screenshots for a person to look at: test-output/contacts-web/<engine>-<name>.png. */
const screenshots = join(process.env.TEST_OUTPUT_DIR ?? join(repoRoot, 'test-output'), 'contacts-web');

interface Recorded {
  /** POSTs to /graphql that are queries or mutations (not event streams), with their bodies. */
  queries: { operationName: string; variables: Record<string, unknown> }[];
  /** POSTs to /graphql asking for an event stream. */
  streams: number;
  /** Every URL asked for. */
  urls: string[];
  /** Console errors, page errors and CSP violations. */
  problems: string[];
}

describe('the contacts web app in a browser', () => {
  let target: TestDatabaseUrl;
  let cwd: string;
  let server: RunningServer;
  let token: string;
  let noContactsScope: string;
  let browser: Browser;

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    cwd = mkdtempSync(join(tmpdir(), 'msgapi-webapp-'));
    mkdirSync(screenshots, { recursive: true });
    // Tokens stay cached for the longest allowed time, so that a page's statement count (compared
    // between pages) never includes a token lookup that another page's did not.
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn', TOKEN_CACHE_SECONDS: '60' }, { cwd });
    const banner = server.output().stdout;
    token = /workspace API token: (mdev_\S+)/.exec(banner)![1]!;
    const workspaceId = /Demo workspace ".*" \(id (\d+)\)/.exec(banner)![1]!;
    const created = await runCli(['token', 'create', '--workspace', workspaceId, '--kind', 'developer', '--scopes', 'tags', '--json'], { DATABASE_URL: target.url });
    noContactsScope = JSON.parse(created.stdout).token;
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    const out = await server?.stop();
    if (process.env.DEBUG_WEBAPP) console.log(out?.stdout, out?.stderr);
    await target?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status).toBeLessThan(300);
    return res.status === 204 ? null : res.json();
  };
  const tagNamesOnRest = async (contactId: string) => ((await rest('GET', `/v1/contacts/${contactId}/tags`)) as { data: { name: string }[] }).data.map((t) => t.name);

  async function open(viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; page: Page; seen: Recorded }> {
    const seen: Recorded = { queries: [], streams: 0, urls: [], problems: [] };
    const context = await browser.newContext({ viewport });
    context.on('request', (request: Request) => {
      seen.urls.push(request.url());
      if (request.url() !== `${server.base}/graphql` || request.method() !== 'POST') return;
      // graphql-sse asks for a stream only; urql's queries accept one too, after JSON.
      if (request.headers()['accept'] === 'text/event-stream') seen.streams += 1;
      else seen.queries.push(JSON.parse(request.postData() ?? '{}'));
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') seen.problems.push(message.text());
    });
    page.on('pageerror', (error) => seen.problems.push(`page error: ${error.message}`));
    await page.goto(`${server.base}/app/`);
    return { context, page, seen };
  }

  /** Types the token as a person would, and sends it with Enter. */
  async function enterToken(page: Page, value: string) {
    await page.getByLabel('API token').fill(value);
    await page.getByLabel('API token').press('Enter');
  }

  const nothingFromElsewhere = (seen: Recorded) => {
    expect(seen.urls.filter((url) => !url.startsWith(`${server.base}/`) && !/^(data|blob):/.test(url))).toEqual([]);
    expect(seen.problems).toEqual([]);
  };

  /** The contact's dynamic image is on screen, decoded. */
  const imageDrawn = (page: Page) =>
    page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img.rendered');
      return img !== null && img.complete && img.naturalWidth > 0;
    });

  /** The rows' contact ids, in order, from their links. */
  const rowIds = (page: Page) => page.locator('.contact-row .contact-name').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.replace('#/contacts/', '')));

  it('the first page is one GraphQL request that brings every row with its tags, fields, notes, inboxes and last message; the next page is one more, with after', async () => {
    const { context, page, seen } = await open();
    try {
      await page.getByText('Enter an API token above').waitFor();
      await rest('GET', '/v1/tags'); // the token is looked up now, and cached for both pages
      const answered = page.waitForResponse((r) => r.url() === `${server.base}/graphql` && (r.request().postData() ?? '').includes('ContactsPage'));
      await enterToken(page, token);
      const firstResponse = await answered;
      const first = await firstResponse.json();
      expect(first.errors).toBeUndefined();
      await page.locator('.contact-row').nth(19).waitFor();
      expect(seen.queries.map((q) => q.operationName)).toEqual(['ContactsPage']);

      // Each row shows what the one answer brought for its contact.
      const nodes = first.data.contacts.edges.map((e: any) => e.node);
      expect(await rowIds(page)).toEqual(nodes.map((n: any) => n.rawId));
      const rows = page.locator('.contact-row');
      for (const [i, node] of nodes.entries()) {
        const row = rows.nth(i);
        const text = await row.innerText();
        expect(text).toContain(node.fullName);
        expect(await row.locator('.chip').allInnerTexts()).toEqual(node.tags.map((t: any) => t.name));
        for (const field of node.customFields.filter((f: any) => f.value !== '')) expect(text).toContain(field.value);
        expect(text).toContain(node.notes.length === 1 ? '1 note' : `${node.notes.length} notes`);
        for (const inbox of node.inboxes) expect(text).toContain(inbox.inbox.name);
        const last = node.messages.edges[0]?.node;
        expect(text).toContain(last ? last.text : 'No messages yet');
      }
      expect(nodes.some((n: any) => n.tags.length > 0 && n.notes.length > 0 && n.messages.edges.length > 0 && n.inboxes.length > 0)).toBe(true);
      await page.screenshot({ path: join(screenshots, `${testEngine}-list-1400.png`) });

      const next = page.waitForResponse((r) => r.url() === `${server.base}/graphql` && (r.request().postData() ?? '').includes('ContactsPage'));
      await page.getByRole('button', { name: 'Next' }).click();
      const secondResponse = await next;
      const second = await secondResponse.json();
      // The page's nested reads cost the same statements for 20 rows as for 5 (the server says
      // how many it ran: EXPOSE_DB_STATEMENTS, on outside production).
      const statements = async (r: Response) => Number((await r.allHeaders())['x-db-statements']);
      expect(await statements(firstResponse)).toBeGreaterThan(0);
      expect(await statements(secondResponse)).toBe(await statements(firstResponse));
      const secondIds = second.data.contacts.edges.map((e: any) => e.node.rawId);
      // The answer is in; the page shows it once React has rendered it.
      await page.locator(`.contact-row a[href="#/contacts/${secondIds[0]}"]`).waitFor();
      await page.getByText('Page 2').waitFor();
      expect(seen.queries.map((q) => q.operationName)).toEqual(['ContactsPage', 'ContactsPage']);
      expect(seen.queries[1]!.variables.after).toBe(first.data.contacts.pageInfo.endCursor);
      expect(await rowIds(page)).toEqual(secondIds);
      expect(secondIds.length).toBe(5);
      expect(secondIds.filter((id: string) => nodes.some((n: any) => n.rawId === id))).toEqual([]);

      // The live strip is one stream for the whole visit.
      expect(seen.streams).toBe(1);
      nothingFromElsewhere(seen);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('by keyboard: a contact page in one request, its drawn image, a tag edited there shows on REST, a tag added and a message sent over REST show within 3 s without a reload', async () => {
    const { context, page, seen } = await open();
    try {
      // React renders after the load event: keys pressed before would go nowhere.
      await page.getByLabel('API token').waitFor();
      await page.keyboard.press('Tab'); // the skip link
      await page.keyboard.press('Tab'); // the token field
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('token');
      await page.keyboard.type(token);
      await page.keyboard.press('Enter');
      await page.locator('.contact-row').first().waitFor();
      // Tab to the first contact's link and open it with Enter.
      const firstId = (await rowIds(page))[0]!;
      for (let i = 0; i < 15; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.getAttribute('href'))) === `#/contacts/${firstId}`) break;
      }
      const detail = page.waitForResponse((r) => r.url() === `${server.base}/graphql` && (r.request().postData() ?? '').includes('ContactDetail'));
      await page.keyboard.press('Enter');
      const answer = await (await detail).json();
      expect(answer.errors).toBeUndefined();
      const contact = answer.data.contact;
      await page.getByRole('heading', { level: 1, name: contact.fullName }).waitFor();
      expect(seen.queries.map((q) => q.operationName)).toEqual(['ContactsPage', 'ContactDetail']);
      for (const note of contact.notes) await page.getByText(note.text).first().waitFor();
      for (const s of contact.sequences) await page.getByText(s.sequenceName).first().waitFor();

      // The dynamic image, drawn for this contact, from this origin.
      await imageDrawn(page);
      expect(seen.urls.some((url) => url.startsWith(`${server.base}/dynamic-images/r/`))).toBe(true);

      // A tag added in the app is on the contact for REST; removed, it is gone.
      const marker = await page.evaluate(() => ((window as any).loadedOnce = Math.random()));
      await page.getByLabel('Add a tag').fill('Web app');
      await page.getByLabel('Add a tag').press('Enter');
      await page.getByRole('button', { name: 'Remove tag Web app' }).waitFor();
      expect(await tagNamesOnRest(contact.rawId)).toContain('Web app');
      await page.getByRole('button', { name: 'Remove tag Web app' }).click();
      await page.getByRole('button', { name: 'Remove tag Web app' }).waitFor({ state: 'detached' });
      expect(await tagNamesOnRest(contact.rawId)).not.toContain('Web app');

      // A tag added elsewhere (REST) reaches the open page through the event stream.
      const sent = Date.now();
      await rest('POST', `/v1/contacts/${contact.rawId}/tags/by-name`, { names: ['Added over REST'] });
      await page.getByRole('button', { name: 'Remove tag Added over REST' }).waitFor({ timeout: 3_000 });
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(await page.evaluate(() => (window as any).loadedOnce)).toBe(marker);
      await page.getByText(/Added over REST.* applied/).first().waitFor({ timeout: 3_000 });
      // A message sent over REST: in the strip and in the contact's conversation, without a reload.
      await rest('POST', `/v1/contacts/${contact.rawId}/messages`, { text: 'Sent over REST' });
      await page.locator('.events').getByText(`To ${contact.fullName}: “Sent over REST”`).waitFor({ timeout: 3_000 });
      await page.locator('.message.outgoing', { hasText: 'Sent over REST' }).waitFor({ timeout: 3_000 });
      expect(await page.evaluate(() => (window as any).loadedOnce)).toBe(marker);
      await page.screenshot({ path: join(screenshots, `${testEngine}-contact-1400.png`) });

      // A field saved with a value the API refuses: its message, as worded.
      const number = contact.customFields.find((f: any) => f.type === 'number');
      if (number) {
        const input = page.getByLabel(`${number.name} (number)`);
        await input.fill('not a number');
        await input.press('Enter');
        await page.locator('.field-form .problem').first().waitFor();
      }
      expect(seen.streams).toBe(1);
      nothingFromElsewhere(seen);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a tag added over REST shows in the open list within 3 s; at phone width nothing is wider than the screen', async () => {
    const { context, page, seen } = await open({ width: 390, height: 844 });
    try {
      await enterToken(page, token);
      await page.locator('.contact-row').first().waitFor();
      const id = (await rowIds(page))[2]!;
      const sent = Date.now();
      await rest('POST', `/v1/contacts/${id}/tags/by-name`, { names: ['Seen live'] });
      await page.locator(`.contact-row:has(a[href="#/contacts/${id}"]) .chip`, { hasText: 'Seen live' }).waitFor({ timeout: 3_000 });
      expect(Date.now() - sent).toBeLessThan(3_000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(screenshots, `${testEngine}-list-390.png`) });

      await page.locator(`a[href="#/contacts/${id}"]`).first().click();
      await imageDrawn(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(screenshots, `${testEngine}-contact-390.png`) });
      nothingFromElsewhere(seen);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('search by keyword and by tag: one request each, only matching rows; no match says so', async () => {
    const { context, page, seen } = await open();
    try {
      await enterToken(page, token);
      await page.locator('.contact-row').first().waitFor();
      const searched = page.waitForResponse((r) => r.url() === `${server.base}/graphql` && (r.request().postData() ?? '').includes('ContactsPage'));
      await page.getByLabel('Search').fill('garcia');
      await page.getByLabel('Search').press('Enter');
      const found = (await (await searched).json()).data.contacts.edges.map((e: any) => e.node);
      expect(found.length).toBeGreaterThan(0);
      await page.locator(`.contact-row a[href="#/contacts/${found[0].rawId}"]`).waitFor();
      await expect.poll(() => rowIds(page)).toEqual(found.map((n: any) => n.rawId));
      for (const name of await page.locator('.contact-name').allInnerTexts()) expect(name.toLowerCase()).toContain('garcia');

      const filtered = page.waitForResponse((r) => r.url() === `${server.base}/graphql` && (r.request().postData() ?? '').includes('ContactsPage'));
      await page.getByRole('combobox', { name: /^Tag/ }).selectOption({ label: 'VIP' });
      const tagged = (await (await filtered).json()).data.contacts.edges.map((e: any) => e.node);
      await expect.poll(() => rowIds(page)).toEqual(tagged.map((n: any) => n.rawId));
      for (const node of tagged) expect(node.tags.map((t: any) => t.name)).toContain('VIP');

      await page.getByLabel('Search').fill('nobody-is-called-this');
      await page.getByLabel('Search').press('Enter');
      await page.getByText('No contact matches these filters.').waitFor();
      expect(seen.queries.map((q) => q.operationName)).toEqual(['ContactsPage', 'ContactsPage', 'ContactsPage', 'ContactsPage']);
      expect(seen.queries.at(-1)!.variables).toMatchObject({ keyword: 'nobody-is-called-this', tagIds: [expect.any(String)] });
      nothingFromElsewhere(seen);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a server restart: the list keeps its rows while the API is away, the strip reconnects after the last event it saw, and a change made meanwhile still arrives', async () => {
    const { context, page } = await open();
    try {
      await enterToken(page, token);
      await page.locator('.contact-row').first().waitFor();
      const id = (await rowIds(page))[1]!;
      await rest('POST', `/v1/contacts/${id}/tags/by-name`, { names: ['Before the restart'] });
      await page.locator('.events').getByText(/Before the restart/).waitFor({ timeout: 3_000 });

      // The list re-reads itself for that event (150 ms later): now, while the server is down.
      // It is asked again a few times, then says so, and keeps the rows it had on screen.
      await server.stop();
      await page.getByText('Live updates paused: reconnecting…').waitFor();
      await page.getByRole('alert').getByText('The API could not be reached').waitFor({ timeout: 15_000 });
      expect(await rowIds(page)).toHaveLength(20);
      // The same port and database: the page's origin is unchanged.
      server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn', TOKEN_CACHE_SECONDS: '60', PORT: String(server.port) }, { cwd });
      // Made as soon as the server is back, perhaps before the page has reconnected: the page
      // gets it either live or replayed (events after the last one it saw).
      await rest('POST', `/v1/contacts/${id}/tags/by-name`, { names: ['After the restart'] });
      await page.locator('.events').getByText(/After the restart/).waitFor({ timeout: 10_000 });
      await page.locator(`.contact-row:has(a[href="#/contacts/${id}"]) .chip`, { hasText: 'After the restart' }).waitFor({ timeout: 3_000 });
      await page.getByText('Live updates paused: reconnecting…').waitFor({ state: 'detached' });
      await page.getByRole('alert').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a wrong token shows the 401 message, a token without the contacts scope the 403 message; the token stays in this tab only', async () => {
    const { context, page } = await open();
    try {
      await enterToken(page, `mdev_${'x'.repeat(43)}`);
      await page.getByRole('alert').getByText('The API refused this token: The token is malformed, unknown or revoked').waitFor();

      await enterToken(page, noContactsScope);
      await page.getByRole('alert').getByText('This token may not do that: This token lacks the "contacts" scope').waitFor();
      expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([noContactsScope]);
      expect(await page.evaluate(() => Object.values(localStorage))).toEqual([]);

      await page.getByRole('button', { name: 'Forget token' }).click();
      await page.getByText('Enter an API token above').waitFor();
      expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
