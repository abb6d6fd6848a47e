import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContactByIdentifierDocument,
  ContactIdsDocument,
  CreateContactDocument,
  CreatePhotoCommentAutomationDocument,
  DynamicImagesDocument,
  ErrorLogsDocument,
} from './graphql/generated/graphql.js';
import { forbidden, unlimited } from './support/endpoints.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { photoCommentInput } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * REST's text rule on GraphQL: a NUL character (PostgreSQL cannot store it: it was a 500 there) or a
 * lone UTF-16 surrogate (it would be stored altered) in any argument of any root field, written in
 * the document or sent as a variable, is 422 invalidRequestData at the value's path, before the
 * field's schema is checked and after its access rule, as on REST. Nothing is written.
 */
const NUL = 'Must not contain NUL characters';
const SURROGATE = 'Must be well-formed Unicode (no lone surrogates)';

describe('GraphQL arguments with NUL characters or lone surrogates', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Text' });
    token = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  it('contact(identifier): as a variable and as a literal, at ["identifier"]', async () => {
    const variable = await gql(t, ContactByIdentifierDocument, { identifier: 'a\u0000b' }, token);
    expect(variable.body).toEqual({ data: null, errors: [invalidInput(['contact'], [{ message: NUL, path: ['identifier'] }], `identifier: ${NUL}`)] });
    const literal = await t.graphql('{ contact(identifier: "a\\u0000b") { id } }', undefined, token);
    expect(literal.body).toEqual({ data: null, errors: [invalidInput(['contact'], [{ message: NUL, path: ['identifier'] }], `identifier: ${NUL}`)] });
    const surrogate = await gql(t, ContactByIdentifierDocument, { identifier: 'a\ud800b' }, token);
    expect(surrogate.body).toEqual({ data: null, errors: [invalidInput(['contact'], [{ message: SURROGATE, path: ['identifier'] }], `identifier: ${SURROGATE}`)] });
  });

  it('contacts(keyword), errorLogs(keyword), dynamicImages(name): at the argument', async () => {
    const contacts = await gql(t, ContactIdsDocument, { keyword: 'a\u0000b' }, token);
    expect(contacts.body).toEqual({ data: null, errors: [invalidInput(['contacts'], [{ message: NUL, path: ['keyword'] }], `keyword: ${NUL}`)] });
    const logs = await t.graphql('{ errorLogs(keyword: "time\\u0000out") { pageCount } }', undefined, token);
    expect(logs.body).toEqual({ data: null, errors: [invalidInput(['errorLogs'], [{ message: NUL, path: ['keyword'] }], `keyword: ${NUL}`)] });
    const logsVariable = await gql(t, ErrorLogsDocument, { keyword: '\udc00' }, token);
    expect(logsVariable.body).toEqual({ data: null, errors: [invalidInput(['errorLogs'], [{ message: SURROGATE, path: ['keyword'] }], `keyword: ${SURROGATE}`)] });
    const images = await t.graphql('{ dynamicImages(name: "\\u0000") { pageCount } }', undefined, token);
    expect(images.body).toEqual({ data: null, errors: [invalidInput(['dynamicImages'], [{ message: NUL, path: ['name'] }], `name: ${NUL}`)] });
    const imagesVariable = await gql(t, DynamicImagesDocument, { name: '\u0000' }, token);
    expect(imagesVariable.body).toEqual({ data: null, errors: [invalidInput(['dynamicImages'], [{ message: NUL, path: ['name'] }], `name: ${NUL}`)] });
  });

  it('createContact: at ["input", field], only the text issues (as REST), nothing written', async () => {
    const literal = await t.graphql('mutation { createContact(input: {email: "x@y.com", firstName: "a\\u0000b"}) { id } }', undefined, token);
    expect(literal.body).toEqual({ data: null, errors: [invalidInput(['createContact'], [{ message: NUL, path: ['input', 'firstName'] }], `input.firstName: ${NUL}`)] });
    // The invalid email would fail the schema too; the text rule answers first, as on REST.
    const both = await gql(t, CreateContactDocument, { input: { email: 'not-an-email', firstName: 'a\u0000b', lastName: '\ud83d' } }, token);
    expect(both.body).toEqual({
      data: null,
      errors: [
        invalidInput(
          ['createContact'],
          [
            { message: NUL, path: ['input', 'firstName'] },
            { message: SURROGATE, path: ['input', 'lastName'] },
          ],
          'input.firstName: Must not contain NUL characters (and 1 more issue)',
        ),
      ],
    });
    expect(await t.db.selectFrom('contacts').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
    // A well-formed surrogate pair is text like any other.
    const emoji = await gql(t, CreateContactDocument, { input: { email: 'emoji@example.com', firstName: 'Ada \ud83d\ude00' } }, token);
    expect(emoji.body.errors).toBeUndefined();
  });

  it('nested input: the path goes down to the value (createPhotoCommentAutomation)', async () => {
    const input = photoCommentInput();
    input.excludeKeywords = ['fine', 'bad\u0000word'];
    const res = await gql(t, CreatePhotoCommentAutomationDocument, { input }, token);
    expect(res.body).toEqual({
      data: null,
      errors: [invalidInput(['createPhotoCommentAutomation'], [{ message: NUL, path: ['input', 'excludeKeywords', 1] }], `input.excludeKeywords[1]: ${NUL}`)],
    });
    expect(await t.db.selectFrom('comment_automations').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
  });

  it('the access rule still answers first', async () => {
    const scoped = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
    const res = await gql(t, ContactByIdentifierDocument, { identifier: 'a\u0000b' }, { token: scoped });
    expect(res.body).toEqual({ data: null, errors: [fieldError(['contact'], forbidden({ reason: 'missingScope', scope: 'contacts' }), 'This token lacks the "contacts" scope')] });
  });
});
