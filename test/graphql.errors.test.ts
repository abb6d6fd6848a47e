import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContactByIdentifierDocument,
  ContactIdsDocument,
  CreateContactDocument,
  CreatePhotoCommentAutomationDocument,
  ErrorLogsDocument,
  TagsDocument,
} from './graphql/generated/graphql.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { documentError, fieldError, gql, invalidInput } from './support/graphql.js';
import { photoCommentInput } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { validationError } from './support/rest.js';

/**
 * Every GraphQL error carries the REST envelope's code, status, defined and data in `extensions`:
 * input that fails the REST zod schema is 422 invalidRequestData with data.issues [{message, path}],
 * a rule beyond the schema is 422 validation, a missing record 404 notFound, anything unexpected
 * 500 INTERNAL_SERVER_ERROR (masked, logged with the request id). GraphQL's own rejections of a
 * document (syntax, unknown fields, mistyped variables) are invalidRequestData at path `query`.
 */
describe('GraphQL errors carry the envelope', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited, { captureLogs: true });
    ws = await t.workspace({ name: 'Errors' });
    token = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  it('createContact input that fails the REST schema: invalidRequestData with every issue, paths under input', async () => {
    const res = await gql(t, CreateContactDocument, { input: { email: 'not-an-email', phoneNumber: '12' } }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['createContact'],
          [
            { message: 'phoneNumber must be an optional + followed by 7 to 20 digits', path: ['input', 'phoneNumber'] },
            { message: 'email must be a valid email address', path: ['input', 'email'] },
          ],
          'phoneNumber must be an optional + followed by 7 to 20 digits (and 1 more issue)',
        ),
      ],
    });
  });

  it('createContact without email or phone number: the REST refinement', async () => {
    const res = await gql(t, CreateContactDocument, { input: { firstName: 'Ada', email: null } }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [invalidInput(['createContact'], [{ message: 'Provide at least one of email or phoneNumber', path: ['input'] }], 'input: Provide at least one of email or phoneNumber')],
    });
  });

  it('a duplicate contact email: 422 validation naming the field, as REST', async () => {
    expect((await gql(t, CreateContactDocument, { input: { email: 'dup@example.com' } }, token)).body.errors).toBeUndefined();
    const res = await gql(t, CreateContactDocument, { input: { email: 'DUP@example.com' } }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [fieldError(['createContact'], validationError({ field: 'email', reason: 'alreadyExists' }), 'Another contact already has this email')],
    });
  });

  it('createPhotoCommentAutomation input that fails the REST schema: nested paths', async () => {
    const input = photoCommentInput();
    input.name = '';
    input.replyAfter = { type: 'seconds', value: -1 };
    input.privateReply = { type: 'text', value: 'Hi', values: Array.from({ length: 11 }, (_, i) => ({ value: `v${i}` })) };
    input.startTime = '25:00';
    const res = await gql(t, CreatePhotoCommentAutomationDocument, { input }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['createPhotoCommentAutomation'],
          [
            { message: 'name must not be empty', path: ['input', 'name'] },
            { message: 'at most 10 values', path: ['input', 'privateReply', 'values'] },
            { message: 'value must not be negative', path: ['input', 'replyAfter', 'value'] },
            { message: 'must be a time of day as HH:mm', path: ['input', 'startTime'] },
          ],
          'name must not be empty (and 3 more issues)',
        ),
      ],
    });
    expect(await t.db.selectFrom('comment_automations').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
  });

  it('a missing record: notFound at its field', async () => {
    const res = await gql(t, ContactByIdentifierDocument, { identifier: 'nobody@example.com' }, token);
    expect(res.body).toEqual({ data: null, errors: [fieldError(['contact'], { ...envelopes.notFound, data: { resource: 'Contact' } }, 'Contact not found')] });
  });

  it('a syntax error, an unknown field and a mistyped variable: invalidRequestData for the document', async () => {
    const syntax = await t.graphql('{ tags { id ', undefined, token);
    expect(syntax.body).toEqual({ errors: [documentError('Syntax Error: Expected Name, found <EOF>.', { locations: [{ line: 1, column: 13 }] })] });

    const unknown = await t.graphql('{ tags { id colour } }', undefined, token);
    expect(unknown.body).toEqual({ errors: [documentError('Cannot query field "colour" on type "Tag".', { locations: [{ line: 1, column: 13 }] })] });

    const variable = await gql(t, ContactIdsDocument, { first: 'ten' as unknown as number }, token);
    const issue = 'Variable "$first" got invalid value "ten"; Int cannot represent non-integer value: "ten"';
    expect(variable.body).toEqual({ errors: [documentError(issue, { locations: [{ line: 2, column: 22 }] }, ['variables', 'first'])] });
  });

  it('anything unexpected: INTERNAL_SERVER_ERROR with the default message, no SQL, logged with the request id', async () => {
    await fixtures(t.db, ws.id).errorLog('Timed out');
    expect((await gql(t, ErrorLogsDocument, {}, token)).body.errors).toBeUndefined();
    await sql`alter table error_logs rename column created_at to logged_at`.execute(t.db);
    const res = await gql(t, ErrorLogsDocument, {}, { ...token, headers: { 'x-request-id': 'req-broken-logs' } });
    expect(res.body).toEqual({ data: null, errors: [fieldError(['errorLogs'], envelopes.INTERNAL_SERVER_ERROR, 'An unexpected error occurred')] });
    expect(res.text).not.toMatch(/select |created_at|logged_at|sqlite|relation "|no such|stack|\.ts:\d+/i);
    const logged = t.logs.find((l) => l.msg === 'unexpected GraphQL error' && l.requestId === 'req-broken-logs');
    expect(logged).toMatchObject({ level: 50, path: ['errorLogs'], err: { message: expect.stringMatching(/created_at/) } });
    // The rest of the schema keeps working.
    expect((await gql(t, TagsDocument, {}, token)).body).toEqual({ data: { tags: [] } });
  });
});
