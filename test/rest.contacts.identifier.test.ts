import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { fixtures } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, notFound } from './support/rest.js';

/**
 * Contact identifiers of GET /v1/contacts/{identifier}/...: `id:`, `email:`, `phone:` prefixes match
 * exactly; a bare value is an id when all digits (then a phone number), an email when it contains
 * `@`, otherwise a phone number. Emails match case-insensitively. Checked through /sequences, where
 * each contact has its own sequence, so the body says which contact was resolved.
 */
describe('contact identifier resolution', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  let ada: number;
  let byPhone: number;
  let digitsPhone: number;
  let idLookalike: number;
  let otherContact: number;

  /** Which contact an identifier resolves to: the name of its one sequence, or the 404 body. */
  const resolve = async (identifier: string) => {
    const res = await api.request('GET', `/v1/contacts/${identifier}/sequences`, { token: ws.developerToken });
    if (res.status === 200) return res.body.data.map((s: { sequenceName: string }) => s.sequenceName).join(',');
    return res.body;
  };
  const contactNotFound = notFound('Contact');

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
    const f = fixtures(t.db, ws.id);
    const own = async (contactId: number, name: string) => f.subscribe(contactId, await f.sequence(name));
    ada = await f.contact({ email: 'Ada@Example.com', phone: '+15550001' });
    await own(ada, 'ada');
    byPhone = await f.contact({ phone: '5550002' });
    await own(byPhone, 'byPhone');
    // A phone number made of digits that is also another contact's id: the id wins for a bare value.
    idLookalike = await f.contact({ phone: String(ada) });
    await own(idLookalike, 'idLookalike');
    digitsPhone = await f.contact({ phone: '99999999999999999999' });
    await own(digitsPhone, 'digitsPhone');

    const other = await t.workspace({ name: 'Other' });
    otherContact = await fixtures(t.db, other.id).contact({ email: 'other@example.com', phone: '+15559999' });
  });
  afterAll(() => t.close());

  it('id:<digits> matches the id only', async () => {
    expect(await resolve(`id:${ada}`)).toBe('ada');
    expect(await resolve(`id:${byPhone}`)).toBe('byPhone');
    expect(await resolve('id:5550002')).toEqual(contactNotFound);
    expect(await resolve('id:abc')).toEqual(contactNotFound);
  });

  it('email:<address> matches the email, case-insensitively', async () => {
    expect(await resolve('email:ada@example.com')).toBe('ada');
    expect(await resolve('email:ADA@EXAMPLE.COM')).toBe('ada');
    expect(await resolve('email:nobody@example.com')).toEqual(contactNotFound);
  });

  it('phone:<number> matches the phone number exactly', async () => {
    expect(await resolve(`phone:${encodeURIComponent('+15550001')}`)).toBe('ada');
    expect(await resolve(`phone:${ada}`)).toBe('idLookalike');
    expect(await resolve('phone:15550001')).toEqual(contactNotFound);
  });

  it('a bare all-digit value is an id first, then a phone number', async () => {
    expect(await resolve(String(ada))).toBe('ada');
    expect(await resolve('5550002')).toBe('byPhone');
    // Beyond any possible id: only the phone number can match.
    expect(await resolve('99999999999999999999')).toBe('digitsPhone');
    expect(await resolve('123456789')).toEqual(contactNotFound);
  });

  it('a bare value with @ is an email, case-insensitively', async () => {
    expect(await resolve('ada@example.com')).toBe('ada');
    expect(await resolve('aDa@eXample.COM')).toBe('ada');
    expect(await resolve(encodeURIComponent('ada@example.com'))).toBe('ada');
  });

  it('any other bare value is a phone number', async () => {
    expect(await resolve(encodeURIComponent('+15550001'))).toBe('ada');
    expect(await resolve('+15550001')).toBe('ada');
    expect(await resolve('not-a-contact')).toEqual(contactNotFound);
  });

  it("never finds another workspace's contact", async () => {
    for (const identifier of [String(otherContact), `id:${otherContact}`, 'other@example.com', 'email:other@example.com', '+15559999', 'phone:+15559999']) {
      expect(await resolve(identifier)).toEqual(contactNotFound);
    }
  });

  it('resolves the same way for /custom-fields', async () => {
    const res = await api.request('GET', '/v1/contacts/email:nobody@example.com/custom-fields', { token: ws.developerToken });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(contactNotFound);
    const ok = await api.request('GET', '/v1/contacts/ADA@example.com/custom-fields', { token: ws.developerToken });
    expect(ok.status).toBe(200);
  });

  it('is 422 for an identifier that is not valid percent-encoding or is too long', async () => {
    const bad = await api.request('GET', '/v1/contacts/%E0%A4%A/sequences', { token: ws.developerToken });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(invalidRequestData([{ message: 'Path parameter is not valid percent-encoding', path: ['params', 'identifier'] }]));

    const long = await api.request('GET', `/v1/contacts/${'a'.repeat(321)}/sequences`, { token: ws.developerToken });
    expect(long.status).toBe(422);
    expect(long.body).toEqual(invalidRequestData([{ message: 'Too big: expected string to have <=320 characters', path: ['params', 'identifier'] }]));
  });
});
