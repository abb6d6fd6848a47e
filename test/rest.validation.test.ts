import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractClient } from './support/contract.js';
import { photoCommentBody } from './support/fixtures.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { invalidRequestData, malformedJson } from './support/rest.js';

/**
 * Bad input of any kind gets the contract's envelope with a clear message: never a 500, never a
 * crash, on both engines (PostgreSQL cannot store a NUL character; SQLite would store it).
 */
describe('REST input validation', () => {
  let t: TestApp;
  let api: Awaited<ReturnType<typeof contractClient>>;
  let ws: TestWorkspace;
  const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
    api.request('POST', path, { token: ws.developerToken, body, headers });

  beforeAll(async () => {
    t = await createTestApp();
    api = await contractClient(t);
    ws = await t.workspace();
  });
  afterAll(() => t.close());

  it('refuses NUL characters in the body, the query and the path with 422 at their paths', async () => {
    const body = await postJson('/v1/contacts', JSON.stringify({ email: 'a@example.com', firstName: 'A\u0000da' }));
    expect(body.status).toBe(422);
    expect(body.body).toEqual(invalidRequestData([{ message: 'Must not contain NUL characters', path: ['body', 'firstName'] }]));

    const nested = await postJson('/v1/photo-comments', JSON.stringify({ ...photoCommentBody(), excludeKeywords: ['ok', 'sp\u0000am'] }));
    expect(nested.status).toBe(422);
    expect(nested.body).toEqual(invalidRequestData([{ message: 'Must not contain NUL characters', path: ['body', 'excludeKeywords', 1] }]));

    for (const [path, where] of [
      ['/v1/error-logs?keyword=ab%00c', ['query', 'keyword']],
      ['/v1/dynamic-images?name=%00', ['query', 'name']],
      ['/v1/contacts/%00/custom-fields', ['params', 'identifier']],
    ] as const) {
      const res = await api.request('GET', path, { token: ws.developerToken });
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual(invalidRequestData([{ message: 'Must not contain NUL characters', path: [...where] }]));
    }
  });

  it('refuses text with a lone UTF-16 surrogate instead of storing it altered', async () => {
    const res = await postJson('/v1/contacts', '{"phoneNumber": "1234567", "lastName": "Lovelace\\ud800"}');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalidRequestData([{ message: 'Must be well-formed Unicode (no lone surrogates)', path: ['body', 'lastName'] }]));
    const paired = await postJson('/v1/contacts', '{"phoneNumber": "1234567", "lastName": "Lovelace \\ud83d\\ude00"}');
    expect(paired.status).toBe(200);
    expect(paired.body.lastName).toBe('Lovelace 😀');
  });

  it('treats __proto__ and constructor as the unknown fields they are', async () => {
    const res = await postJson('/v1/contacts', '{"email": "proto@example.com", "__proto__": {"admin": true}, "constructor": 1}');
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      invalidRequestData([
        { message: 'Unrecognized key: "__proto__"', path: ['body', '__proto__'] },
        { message: 'Unrecognized key: "constructor"', path: ['body', 'constructor'] },
      ]),
    );
  });

  it('lists at most 100 issues, then says how many more there were', async () => {
    const fields = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`extra${i}`, i]));
    const res = await postJson('/v1/contacts', JSON.stringify({ email: 'many@example.com', ...fields }));
    expect(res.status).toBe(422);
    const issues = res.body.data.issues;
    expect(issues).toHaveLength(101);
    expect(issues[0]).toEqual({ message: 'Unrecognized key: "extra0"', path: ['body', 'extra0'] });
    expect(issues[100]).toEqual({ message: '50 more issues not shown', path: ['body'] });
  });

  it('counts the text issues it leaves out too', async () => {
    const names = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`extra${i}`, 'a\u0000b']));
    const res = await postJson('/v1/contacts', JSON.stringify({ email: 'nul@example.com', ...names }));
    expect(res.status).toBe(422);
    const issues = res.body.data.issues;
    expect(issues).toHaveLength(101);
    expect(issues[0]).toEqual({ message: 'Must not contain NUL characters', path: ['body', 'extra0'] });
    expect(issues[100]).toEqual({ message: '30 more issues not shown', path: ['body'] });
  });

  it('answers deeply nested and out-of-range JSON with 422, quickly', async () => {
    const started = Date.now();
    const deep = await postJson('/v1/photo-comments', '['.repeat(50_000) + ']'.repeat(50_000));
    expect(deep.status).toBe(422);
    expect(deep.body).toEqual(invalidRequestData([{ message: 'JSON nesting depth 50000 exceeds the limit of 64', path: ['body'] }]));
    const deepField = await postJson('/v1/contacts', `{"email": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(deepField.status).toBe(422);
    expect(Date.now() - started).toBeLessThan(5000);

    const infinite = await postJson('/v1/photo-comments', JSON.stringify(photoCommentBody()).replace('"value":30', '"value":1e400'));
    expect(infinite.status).toBe(422);
    expect(infinite.body).toEqual(invalidRequestData([{ message: 'Invalid input: expected number, received Infinity', path: ['body', 'replyAfter', 'value'] }]));
  });

  it('answers a body that is not JSON, or not sent as JSON, with the envelope', async () => {
    const malformed = await postJson('/v1/contacts', '{"email": "a@example.com",');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(malformedJson());

    const form = await postJson('/v1/photo-comments', 'name=Spring', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ defined: false, code: 'unsupportedMediaType', status: 415, message: 'Request bodies must be sent as application/json' });
  });

  it('authenticates before it reads a malformed path parameter', async () => {
    const anonymous = await api.request('GET', '/v1/contacts/%E0%A4%A/sequences');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ defined: true, code: 'UNAUTHORIZED', status: 401, message: 'Authentication required' });
    const authenticated = await api.request('GET', '/v1/contacts/%E0%A4%A/sequences', { token: ws.developerToken });
    expect(authenticated.status).toBe(422);
    expect(authenticated.body).toEqual(invalidRequestData([{ message: 'Path parameter is not valid percent-encoding', path: ['params', 'identifier'] }]));
  });
});
