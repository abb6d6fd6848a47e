import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { freshDatabaseUrl, type TestDatabaseUrl } from './support/engine.js';
import { startServer, type RunningServer } from './support/processes.js';

/**
 * The pages in a real browser (Debian's chromium, driven by playwright-core; never a downloaded
 * one), against `npm start` on a fresh database: GraphiQL runs its example query with the demo
 * token and shows the nested result, /docs renders the operations with their curl examples and the
 * webhooks, the script-free reference stacks its nav on a phone; no page sends a request to another
 * host and no Content-Security-Policy violation is reported. Every wait is for a fact (a selector, a response).
 */


describe('GraphiQL and the API reference in a browser', () => {
  let target: TestDatabaseUrl;
  let cwd: string;
  let server: RunningServer;
  let token: string;
  let browser: Browser;
  /** Every URL any page asked for, and every CSP violation or console error, per test. */
  let requests: string[];
  let violations: string[];

  beforeAll(async () => {
    target = await freshDatabaseUrl();
    cwd = mkdtempSync(join(tmpdir(), 'msgapi-browser-'));
    server = await startServer({ DATABASE_URL: target.url, LOG_LEVEL: 'warn' }, { cwd });
    token = /workspace API token: (mdev_\S+)/.exec(server.output().stdout)![1];
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await target?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  /** A fresh browser profile (no stored GraphiQL tabs) that records requests and CSP violations. */
  async function open(path: string, viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
    requests = [];
    violations = [];
    const context = await browser.newContext({ viewport });
    context.on('request', (request) => requests.push(request.url()));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { cspViolations: string[] }).cspViolations ??= [];
        (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    const page = await context.newPage();
    // Workers report their violations on the console only.
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
    await page.goto(`${server.base}${path}`);
    return { context, page };
  }

  async function expectNothingFromElsewhere(page: Page) {
    violations.push(...((await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])) as string[]));
    expect(violations).toEqual([]);
    const elsewhere = requests.filter((url) => !url.startsWith(`${server.base}/`) && !/^(blob|data):/.test(url));
    expect(elsewhere).toEqual([]);
  }

  it('GraphiQL opens with the example query, runs it with the demo token, shows the nested result and keeps no token', async () => {
    const { context, page } = await open('/graphql');
    try {
      await page.getByText('query ContactWithEverything').first().waitFor();
      await page.getByText('npm start', { exact: false }).first().waitFor();

      await page.getByText('Headers', { exact: true }).click();
      await page.locator('.graphiql-editor-tool .monaco-editor').last().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      // Monaco closes brackets and quotes as they are typed, and types over them when they are.
      await page.keyboard.type(`{"Authorization": "Bearer ${token}"}`);

      const answered = page.waitForResponse(
        (r) => r.url() === `${server.base}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('ContactWithEverything'),
      );
      await page.locator('.graphiql-execute-button').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      const body = await response.json();
      expect(body.errors).toBeUndefined();
      const tagged = body.data.contacts.edges.find((e: any) => e.node.tags.length > 0).node;
      const field = body.data.contacts.edges[0].node.customFields[0];
      await page.locator('.graphiql-response').getByText(`"${tagged.tags[0].name}"`).first().waitFor();
      await page.locator('.graphiql-response').getByText(`"${field.name}"`).first().waitFor();

      // Headers are not persisted (GRAPHIQL_PERSIST_HEADERS is false by default).
      const stored = await page.evaluate(() => Object.values(localStorage).join('\n'));
      expect(stored).toContain('ContactWithEverything');
      expect(stored).not.toContain(token);
      await expectNothingFromElsewhere(page);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('/docs renders the operations with their curl examples from this server only', async () => {
    // Scalar renders a tag's operations once the tag is open; the hash opens Contacts.
    const { context, page } = await open('/docs#tag/contacts/POST/v1/contacts');
    try {
      await page.getByRole('heading', { name: 'Create a contact' }).waitFor();
      await page.getByText('ada.lovelace@mail.example', { exact: false }).first().waitFor();
      await page.locator('text=/curl .*\\/v1\\/contacts/').first().waitFor();
      await page.getByRole('heading', { name: 'Getting a token' }).first().waitFor();
      await expectNothingFromElsewhere(page);
      expect(requests).toContain(`${server.base}/v1/openapi.json`);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('/docs renders the webhooks: a signed event with its Standard Webhooks headers, its body and the retry schedule', async () => {
    // Scalar opens a webhook at its lower-cased name.
    const { context, page } = await open('/docs#webhook/POST/tagapplied');
    try {
      await page.getByRole('heading', { name: 'tag_applied (condition tagApplied)' }).first().waitFor();
      // Shown, not merely in the page: innerText holds rendered text only.
      for (const text of ['webhook-signature', 'The contact gained a tag.', 'at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h']) {
        await page.waitForFunction((t) => document.body.innerText.includes(t), text);
      }
      await expectNothingFromElsewhere(page);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('/docs/static on a phone: the nav stacks above the content, which keeps its width', async () => {
    const { context, page } = await open('/docs/static', { width: 390, height: 844 });
    try {
      const nav = (await page.locator('nav').boundingBox())!;
      const main = (await page.locator('main').boundingBox())!;
      expect(main.y).toBeGreaterThanOrEqual(nav.y + nav.height);
      expect(main.width).toBeGreaterThan(350);
      // No table widens the page: they scroll inside their own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.getByRole('link', { name: 'Interactive reference' }).first().waitFor();
      await page.screenshot({ path: join(cwd, 'docs-static-390.png') });
      await expectNothingFromElsewhere(page);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('/ links the pages', async () => {
    const { context, page } = await open('/');
    try {
      for (const href of ['/app/', '/docs', '/docs/static', '/graphql', '/v1/openapi.json', '/healthz', '/readyz']) {
        await page.locator(`a[href="${href}"]`).waitFor();
      }
      await expectNothingFromElsewhere(page);
    } finally {
      await context.close();
    }
  }, 60_000);
});
