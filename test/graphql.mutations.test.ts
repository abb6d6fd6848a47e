import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommentAutomationDocument,
  ConversationDocument,
  ConversationsDocument,
  CreateContactDocument,
  CreatePhotoCommentAutomationDocument,
  DeleteNetLeadAdAutomationDocument,
  FollowConversationDocument,
  LeadAdAutomationsDocument,
  UnfollowConversationDocument,
} from './graphql/generated/graphql.js';
import { envelopes, unlimited } from './support/endpoints.js';
import { fixtures, sampleHideComments, sampleOptions } from './support/fixtures.js';
import { fieldError, gql, invalidInput } from './support/graphql.js';
import { insertFolder } from './support/contract-calls/folders.js';
import { photoCommentInput } from './support/graphql-operations.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';
import { digits, isoNow } from './support/rest.js';

/** Every REST write as a GraphQL mutation, with the same effects and answers. */
describe('GraphQL mutations', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let token: { token: string };
  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace({ name: 'Writes' });
    token = { token: ws.developerToken };
  });
  afterAll(() => t.close());

  it('createContact creates the contact POST /v1/contacts would', async () => {
    const res = await gql(t, CreateContactDocument, { input: { email: 'ada@example.com', phoneNumber: '+4915112345678', firstName: ' Ada ', lastName: 'Lovelace' } }, token);
    expect(res.body).toEqual({
      data: {
        createContact: {
          id: digits(),
          email: 'ada@example.com',
          phoneNumber: '+4915112345678',
          firstName: 'Ada',
          lastName: 'Lovelace',
          fullName: 'Ada Lovelace',
          gender: 'unknown',
          emailVerified: false,
          emailOptIn: false,
          workspaceId: String(ws.id),
          tags: [],
          notes: [],
          inboxes: [],
          customFields: [],
        },
      },
    });
    const rest = await t.request('GET', `/v1/contacts/ada@example.com/sequences`, token);
    expect(rest.body).toEqual({ data: [] });
  });

  it('createPhotoCommentAutomation creates an active photo automation with zero counters, readable by id', async () => {
    const folderId = String(await insertFolder(t.db, ws.id, 'commentAutomation', 'Spring'));
    const res = await gql(t, CreatePhotoCommentAutomationDocument, { input: { ...photoCommentInput(), folderId, startTime: '08:30' } }, token);
    const created = {
      id: digits(),
      createdAt: isoNow(),
      updatedAt: isoNow(),
      name: 'Spring promo',
      folderId,
      type: 'photo',
      isActive: true,
      startTime: '08:30',
      endTime: null,
      repliesCount: 0,
      sentCount: 0,
      deliveredCount: 0,
      seenCount: 0,
      clickedCount: 0,
      failedCount: 0,
      missedCount: 0,
      post: { type: 'published', value: ['17890001'] },
      privateReply: { type: 'text', value: 'Thanks for your comment!', values: [{ value: 'Hi there' }] },
      publicReply: { type: 'text', value: 'Check your DMs', values: null },
      includeKeywords: { type: 'contain', value: ['price'] },
      excludeKeywords: ['spam'],
      options: sampleOptions,
      hideComments: sampleHideComments,
      replyAfter: { type: 'seconds', value: 30 },
    };
    expect(res.body).toEqual({ data: { createPhotoCommentAutomation: { channel: 'photo', ...created } } });
    const { channel: _channel, ...fields } = res.body.data!.createPhotoCommentAutomation;
    const read = await gql(t, CommentAutomationDocument, { id: fields.id, channel: 'photo' }, token);
    expect(read.body).toEqual({ data: { commentAutomation: fields } });
    const id = fields.id;
    // It is not a net-comments automation.
    expect((await gql(t, CommentAutomationDocument, { id, channel: 'net' }, token)).body).toEqual({
      data: null,
      errors: [fieldError(['commentAutomation'], { ...envelopes.notFound, data: { resource: 'Comment automation' } }, 'Comment automation not found')],
    });
  });

  it('createPhotoCommentAutomation takes the enum names of values that are not GraphQL names (_6h for 6h)', async () => {
    const input = { ...photoCommentInput(), hideComments: { ...sampleHideComments, showCommentsAfter: '_6h' as const } };
    const res = await gql(t, CreatePhotoCommentAutomationDocument, { input }, token);
    expect(res.body.data!.createPhotoCommentAutomation.hideComments.showCommentsAfter).toBe('_6h');
    const stored = await t.db.selectFrom('comment_automations').select('hide_comments').where('id', '=', Number(res.body.data!.createPhotoCommentAutomation.id)).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.hide_comments).showCommentsAfter).toBe('6h');
  });

  it('deleteNetLeadAdAutomation deletes permanently; a second delete is notFound; ids are digit strings', async () => {
    const f = fixtures(t.db, ws.id);
    const keep = String(await f.leadAd('Keep'));
    const gone = String(await f.leadAd('Gone'));
    expect((await gql(t, DeleteNetLeadAdAutomationDocument, { id: gone }, token)).body).toEqual({ data: { deleteNetLeadAdAutomation: { success: true } } });
    expect((await gql(t, LeadAdAutomationsDocument, {}, token)).body.data!.leadAdAutomations.data.map((a) => a.id)).toEqual([keep]);
    expect((await gql(t, DeleteNetLeadAdAutomationDocument, { id: gone }, token)).body).toEqual({
      data: null,
      errors: [fieldError(['deleteNetLeadAdAutomation'], { ...envelopes.notFound, data: { resource: 'Lead-ad automation' } }, 'Lead-ad automation not found')],
    });
    expect((await gql(t, DeleteNetLeadAdAutomationDocument, { id: 'abc' }, token)).body).toEqual({
      data: null,
      errors: [invalidInput(['deleteNetLeadAdAutomation'], [{ message: 'must be a LeadAdAutomation global id or a digit string', path: ['id'] }], 'id: must be a LeadAdAutomation global id or a digit string')],
    });
  });

  it('unfollowConversation and followConversation set followed, repeat harmlessly, and 404 an unknown id', async () => {
    const f = fixtures(t.db, ws.id);
    const id = String(await f.conversation({ contactId: await f.contact({ email: 'talk@example.com' }) }));
    const followed = async () => (await gql(t, ConversationDocument, { id }, token)).body.data!.conversation.followed;
    expect(await followed()).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect((await gql(t, UnfollowConversationDocument, { id }, token)).body).toEqual({ data: { unfollowConversation: { success: true } } });
      expect(await followed()).toBe(false);
    }
    const unfollowed = await gql(t, ConversationsDocument, { followed: false }, token);
    expect(unfollowed.body.data!.conversations.edges.map((e) => e.node)).toEqual([{ id, followed: false, contactId: expect.any(String) }]);
    expect((await gql(t, FollowConversationDocument, { id }, token)).body).toEqual({ data: { followConversation: { success: true } } });
    expect(await followed()).toBe(true);
    expect((await gql(t, UnfollowConversationDocument, { id: '999999' }, token)).body).toEqual({
      data: null,
      errors: [fieldError(['unfollowConversation'], { ...envelopes.notFound, data: { resource: 'Conversation' } }, 'Conversation not found')],
    });
  });
});
