import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObjectType } from 'graphql';
import { scopes } from '../src/domain/auth/scopes.js';
import { schema } from '../src/graphql/schema.js';
import { CreateContactDocument, TagsDocument, WorkspaceCountsDocument } from './graphql/generated/graphql.js';
import { envelopes, forbidden, unlimited } from './support/endpoints.js';
import { fieldError, gql, requestError } from './support/graphql.js';
import { operations, rootPath } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

const workspaceTokenRequired = forbidden({ reason: 'workspaceTokenRequired', acceptedSchemes: ['developerAccessToken', 'tokenInSearchParams'] });
const invalidToken = 'The token is malformed, unknown or revoked (or a user access token sent in ?token=)';

/**
 * GraphQL applies REST's authentication and access rules: the same tokens and schemes, the token
 * kind rule on `workspace` and `createContact`, read-only tokens refused on every mutation (which
 * then changes nothing), and scopes per area. Every root field of the schema is in the table.
 */
describe('GraphQL authentication and access rules', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let readOnly: { developer: string; user: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Acme' });
    readOnly = {
      developer: await t.token(ws.id, { kind: 'developer', readOnly: true }),
      user: await t.token(ws.id, { kind: 'user', readOnly: true }),
    };
  });
  afterAll(() => t.close());

  it('the table names every Query and Mutation field of the schema (but node and nodes, whose rule is per type: graphql.node.test.ts)', () => {
    const rootFields = [schema.getQueryType(), schema.getMutationType()]
      .filter(isObjectType)
      .flatMap((type) => Object.keys(type.getFields()).map((name) => `${type.name}.${name}`))
      .filter((field) => field !== 'Query.node' && field !== 'Query.nodes');
    expect(operations.map((o) => o.field).sort()).toEqual(rootFields.sort());
  });

  it('without credentials: 401 UNAUTHORIZED in extensions and as the HTTP status, with WWW-Authenticate', async () => {
    const res = await gql(t, TagsDocument, {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(res.body).toEqual(requestError(envelopes.UNAUTHORIZED, 'Authentication required: send a token as "Authorization: Bearer <token>"'));
  });

  it('an unknown token, or a user access token in ?token=: 401 INVALID_CHATBOT_TOKEN', async () => {
    const unknown = await gql(t, TagsDocument, {}, { token: `mdev_${'x'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(requestError(envelopes.INVALID_CHATBOT_TOKEN, invalidToken));
    const userInQuery = await gql(t, TagsDocument, {}, { token: ws.userToken, tokenInQuery: true });
    expect(userInQuery.status).toBe(401);
    expect(userInQuery.body).toEqual(requestError(envelopes.INVALID_CHATBOT_TOKEN, invalidToken));
  });

  it('a workspace API token in ?token= is accepted, as on REST', async () => {
    const res = await gql(t, TagsDocument, {}, { token: ws.developerToken, tokenInQuery: true });
    expect(res.body).toEqual({ data: { tags: [] } });
  });

  it('a read-only token is refused on a mutation before its input is validated (as REST checks access first)', async () => {
    const res = await gql(t, CreateContactDocument, { input: { email: 'not an email' } }, { token: readOnly.developer });
    expect(res.body).toEqual({ data: null, errors: [fieldError(['createContact'], forbidden({ reason: 'readOnlyToken' }), 'This token is read-only: mutations need a full-permission token')] });
  });

  it('each workspace count needs the scope of its area', async () => {
    const token = await t.token(ws.id, { kind: 'developer', scopes: ['workspace', 'tags'] });
    const res = await gql(t, WorkspaceCountsDocument, {}, { token });
    const denied = (field: string, scope: string) => fieldError(['workspace', 'counts', field], forbidden({ reason: 'missingScope', scope }), `This token lacks the "${scope}" scope`);
    expect(res.body).toEqual({
      data: {
        workspace: {
          id: String(ws.id),
          counts: { contacts: null, tags: 0, conversations: null, commentAutomations: null, leadAdAutomations: null, dynamicImages: null, errorLogs: null },
        },
      },
      errors: [
        denied('contacts', 'contacts'),
        denied('conversations', 'conversations'),
        denied('commentAutomations', 'automations'),
        denied('leadAdAutomations', 'automations'),
        denied('dynamicImages', 'dynamic_images'),
        denied('errorLogs', 'error_logs'),
      ],
    });
  });

  for (const op of operations) {
    const path = rootPath(op);

    it(`${op.field} with a full workspace API token (header): allowed`, async () => {
      const res = await (await op.prepare(t, ws.id))({ token: ws.developerToken });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toEqual({ [path[0]]: expect.anything() });
    });

    it(`${op.field} with a full user access token: ${op.workspaceTokensOnly ? '403 FORBIDDEN (token kind)' : 'allowed'}`, async () => {
      const res = await (await op.prepare(t, ws.id))({ token: ws.userToken });
      if (op.workspaceTokensOnly) expect(res.body).toEqual({ data: null, errors: [fieldError(path, workspaceTokenRequired, 'Only a workspace API token may do this: user access tokens cannot')] });
      else expect(res.body.errors).toBeUndefined();
    });

    for (const kind of ['developer', 'user'] as const) {
      const refusedByKind = op.workspaceTokensOnly && kind === 'user';
      const outcome = refusedByKind ? '403 (token kind)' : op.action === 'read' ? 'allowed' : '403 (read-only), and nothing changes';
      it(`${op.field} with a read-only ${kind} token: ${outcome}`, async () => {
        const call = await op.prepare(t, ws.id);
        const res = await call({ token: readOnly[kind] });
        if (refusedByKind) {
          expect(res.body).toEqual({ data: null, errors: [fieldError(path, workspaceTokenRequired, 'Only a workspace API token may do this: user access tokens cannot')] });
        } else if (op.action !== 'read') {
          expect(res.body).toEqual({ data: null, errors: [fieldError(path, forbidden({ reason: 'readOnlyToken' }), 'This token is read-only: mutations need a full-permission token')] });
          // Nothing happened: the same call with a full token still succeeds (the automation still
          // exists to delete, the conversation is still followed, ...).
          expect((await call({ token: ws.developerToken })).body.errors).toBeUndefined();
        } else {
          expect(res.body.errors).toBeUndefined();
        }
      });
    }

    const scope = op.scope;
    if (scope === null) {
      // No scope (the presented token reads itself): a token limited to any one area may call it.
      it(`${op.field} has no scope: a token scoped to one area only is allowed`, async () => {
        const token = await t.token(ws.id, { kind: 'developer', scopes: ['tags'] });
        const res = await (await op.prepare(t, ws.id))({ token });
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data).toEqual({ [path[0]]: expect.anything() });
      });
      continue;
    }

    it(`${op.field} with a token scoped to "${scope}" only: allowed`, async () => {
      const token = await t.token(ws.id, { kind: 'developer', scopes: [scope] });
      const res = await (await op.prepare(t, ws.id))({ token });
      expect(res.body.errors).toBeUndefined();
    });

    it(`${op.field} with every scope but "${scope}": 403 FORBIDDEN`, async () => {
      const token = await t.token(ws.id, { kind: 'developer', scopes: scopes.filter((s) => s !== scope) });
      const res = await (await op.prepare(t, ws.id))({ token });
      expect(res.body).toEqual({ data: null, errors: [fieldError(path, forbidden({ reason: 'missingScope', scope }), `This token lacks the "${scope}" scope`)] });
    });
  }
});
