import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadHeldByOther } from '../src/domain/thread-control/thread-state.service.js';
import { ContactThreadStatesDocument, SyncThreadOwnerDocument, ThreadControlDocument } from './graphql/generated/graphql.js';
import { seedMessages } from './support/contract-calls/messages.js';
import { testEngine } from './support/engine.js';
import { unlimited } from './support/endpoints.js';
import { fixtures } from './support/fixtures.js';
import { fieldError, gql, invalidInput, statementsOf } from './support/graphql.js';
import { createTestApp, type TestApp, type TestWorkspace } from './support/harness.js';

/**
 * Thread control through the API on the sandbox adapter: POST /v1/conversations/{id}/thread-control
 * (take, pass, release, sync) and .../thread-control/sync, each call recorded in the outbox
 * (`threadControl`), notEscalation when nothing would change, idle computed on read, the contact
 * inbox checked against the conversation, workspaces kept apart; a message sent through the API is
 * refused while another app holds the thread; the same through GraphQL, and ContactInbox.threadState.
 */
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const globalId = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString('base64');

/** The snapshot of a thread no one ever moved: ours. */
const untouched = (contactInbox: number) => ({
  contactInboxId: String(contactInbox),
  state: 'owned',
  ownerRole: 'primary',
  ownerAppId: 'messaging-api',
  transitionedAt: null,
  lastUserMessageAt: null,
  expiresAt: null,
  idleSince: null,
  lastEvent: null,
  lastEventSource: null,
  updatedAt: null,
});

describe(`thread control through the API on ${testEngine}`, () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp(unlimited);
    ws = await t.workspace();
    other = await t.workspace({ name: 'Other' });
  });
  afterAll(() => t?.close());

  /** A contact with a conversation in a new photo inbox, its window open: the thread is ours. */
  const thread = async (w: TestWorkspace = ws) => {
    const f = fixtures(t.db, w.id);
    const n = ++serial;
    const contact = await f.contact({ email: `tc${n}@example.com` });
    const inbox = await f.inbox(`Photo ${n}`, 'photo');
    const { conversation } = await seedMessages(t.db, w.id, contact, inbox);
    const contactInbox = (await t.db.selectFrom('contact_inboxes').select('id').where('contact_id', '=', contact).where('inbox_id', '=', inbox).executeTakeFirstOrThrow()).id;
    return { contact, inbox, conversation, contactInbox, personId: `psid-${w.id}-${contact}` };
  };
  const control = (conversation: number | string, body: unknown, token = ws.developerToken) => t.request('POST', `/v1/conversations/${conversation}/thread-control`, { token, body });
  const sync = (conversation: number | string, body: unknown, token = ws.developerToken) => t.request('POST', `/v1/conversations/${conversation}/thread-control/sync`, { token, body });
  const outbox = async (contact: number, w = ws) => (await t.request('GET', `/v1/outbox?action=threadControl&contactId=${contact}`, { token: w.developerToken })).body.data;

  it('take of a thread that is ours: notEscalation, nothing called or written', async () => {
    const c = await thread();
    const res = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'take' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'notEscalation', snapshot: untouched(c.contactInbox) });
    expect(await outbox(c.contact)).toEqual([]);
    expect(await t.db.selectFrom('thread_states').selectAll().where('contact_inbox_id', '=', c.contactInbox).execute()).toEqual([]);
  });

  it('pass hands the thread to the target app: standby, the call in the outbox; a second pass is notEscalation', async () => {
    const c = await thread();
    const before = Date.now();
    const res = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'pass', targetAppId: 'human-desk', metadata: 'Asked for a person' });
    expect(res.status).toBe(200);
    const at = res.body.snapshot.transitionedAt;
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before);
    expect(res.body).toEqual({
      status: 'applied',
      snapshot: {
        contactInboxId: String(c.contactInbox),
        state: 'standby',
        ownerRole: 'secondary',
        ownerAppId: 'human-desk',
        transitionedAt: at,
        lastUserMessageAt: null,
        expiresAt: iso(Date.parse(at) + 24 * HOUR),
        idleSince: null,
        lastEvent: 'pass',
        lastEventSource: 'api',
        updatedAt: at,
      },
    });
    expect(await outbox(c.contact)).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        createdAt: expect.any(String),
        channel: 'photo',
        inboxId: String(c.inbox),
        action: 'threadControl',
        commentId: null,
        postId: null,
        recipientId: c.personId,
        contactId: String(c.contact),
        automationKind: null,
        automationId: null,
        payload: null,
        threadControl: { action: 'pass', targetAppId: 'human-desk', metadata: 'Asked for a person' },
      },
    ]);
    expect(await threadHeldByOther(t.db, ws.id, c.contact, c.inbox)).toBe(true);
    // Another workspace's view of the same ids holds nothing.
    expect(await threadHeldByOther(t.db, other.id, c.contact, c.inbox)).toBe(false);

    const again = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'release' });
    expect(again.body).toEqual({ status: 'notEscalation', snapshot: res.body.snapshot });
    expect(await outbox(c.contact)).toHaveLength(1);
  });

  it('release hands it to the handover app; take brings it back; sync then finds it ours', async () => {
    const c = await thread();
    const released = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'release' });
    expect(released.body).toMatchObject({ status: 'applied', snapshot: { state: 'standby', ownerRole: 'secondary', ownerAppId: 'page-inbox', lastEvent: 'release', lastEventSource: 'api' } });
    // The sandbox network does as it was told: it names the handover app.
    const synced = await sync(c.conversation, { contactInboxId: String(c.contactInbox) });
    expect(synced.body).toEqual({ status: 'notEscalation', snapshot: released.body.snapshot });

    const taken = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'take', metadata: 'Back to the bot' });
    expect(taken.body).toMatchObject({ status: 'applied', snapshot: { state: 'owned', ownerRole: 'primary', ownerAppId: 'messaging-api', lastEvent: 'take', lastEventSource: 'api', idleSince: null } });
    expect((await outbox(c.contact)).map((e: { threadControl: unknown }) => e.threadControl)).toEqual([
      { action: 'take', targetAppId: null, metadata: 'Back to the bot' },
      { action: 'release', targetAppId: null, metadata: null },
    ]);
    expect(await threadHeldByOther(t.db, ws.id, c.contact, c.inbox)).toBe(false);
    // action sync is the sync route's twin.
    expect((await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'sync' })).body).toEqual({ status: 'notEscalation', snapshot: taken.body.snapshot });
  });

  it('sync records what the network says: another app than recorded is applied', async () => {
    const c = await thread();
    // The record says another app took the thread; the sandbox network never heard of it: ours.
    const at = iso(Date.now() - HOUR);
    await t.db
      .insertInto('thread_states')
      .values({ contact_inbox_id: c.contactInbox, workspace_id: ws.id, state: 'standby', owner_role: 'secondary', owner_app_id: 'x', transitioned_at: at, expires_at: iso(Date.parse(at) + 24 * HOUR), last_event: 'takeThreadControl', last_event_source: 'network', last_user_message_at: null, updated_at: at })
      .execute();
    const res = await sync(c.conversation, { contactInboxId: String(c.contactInbox) });
    expect(res.body).toMatchObject({ status: 'applied', snapshot: { state: 'owned', ownerAppId: 'messaging-api', lastEvent: 'sync', lastEventSource: 'api' } });
    expect(await outbox(c.contact)).toEqual([]);
  });

  it('idle is computed on read: 24 hours after the later of the last message and the last transition', async () => {
    const c = await thread();
    const passedAt = Date.now() - 30 * HOUR;
    const wroteAt = Date.now() - 25 * HOUR;
    await t.db
      .insertInto('thread_states')
      .values({ contact_inbox_id: c.contactInbox, workspace_id: ws.id, state: 'standby', owner_role: 'secondary', owner_app_id: 'human-desk', transitioned_at: iso(passedAt), expires_at: iso(wroteAt + 24 * HOUR), last_event: 'passThreadControl', last_event_source: 'network', last_user_message_at: iso(wroteAt), updated_at: iso(wroteAt) })
      .execute();
    const res = await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'pass', targetAppId: 'human-desk' });
    expect(res.body).toEqual({
      status: 'notEscalation',
      snapshot: {
        contactInboxId: String(c.contactInbox),
        state: 'idle',
        ownerRole: 'secondary',
        ownerAppId: 'human-desk',
        transitionedAt: iso(passedAt),
        lastUserMessageAt: iso(wroteAt),
        expiresAt: iso(wroteAt + 24 * HOUR),
        idleSince: iso(wroteAt + 24 * HOUR),
        lastEvent: 'passThreadControl',
        lastEventSource: 'network',
        updatedAt: iso(wroteAt),
      },
    });
    // Idle is never stored, and an idle thread is held by nobody: senders may send.
    expect((await t.db.selectFrom('thread_states').select('state').where('contact_inbox_id', '=', c.contactInbox).executeTakeFirstOrThrow()).state).toBe('standby');
    expect(await threadHeldByOther(t.db, ws.id, c.contact, c.inbox)).toBe(false);
    expect(await threadHeldByOther(t.db, ws.id, c.contact, c.inbox, new Date(wroteAt + 23 * HOUR))).toBe(true);
  });

  it('a message sent through the API is refused while another app holds the thread: 422 threadNotOwned, nothing sent', async () => {
    const c = await thread();
    await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'pass' });
    const res = await t.request('POST', `/v1/contacts/${c.contact}/messages`, { token: ws.developerToken, body: { text: 'Hello?', inboxId: String(c.inbox) } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      defined: true,
      code: 'validation',
      status: 422,
      message: 'Validation error',
      data: { field: 'inboxId', reason: 'threadNotOwned', detail: `Another app holds the contact's thread in inbox ${c.inbox} (thread control): take it back first`, inboxId: String(c.inbox) },
    });
    expect((await t.request('GET', `/v1/outbox?action=message&contactId=${c.contact}`, { token: ws.developerToken })).body.data).toEqual([]);
    // Taken back, it goes out.
    await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'take' });
    expect((await t.request('POST', `/v1/contacts/${c.contact}/messages`, { token: ws.developerToken, body: { text: 'Hello!', inboxId: String(c.inbox) } })).status).toBe(201);
  });

  it('404 for an unknown conversation or contact inbox, 422 for a contact inbox of another conversation, other workspaces apart', async () => {
    const c = await thread();
    const d = await thread();
    expect((await control(424242, { contactInboxId: String(c.contactInbox), action: 'take' })).body).toEqual({ defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'Conversation' } });
    expect((await control(c.conversation, { contactInboxId: '424242', action: 'take' })).body).toEqual({ defined: true, code: 'notFound', status: 404, message: 'Resource not found', data: { resource: 'ContactInbox' } });
    const mismatch = await sync(c.conversation, { contactInboxId: String(d.contactInbox) });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toEqual({
      defined: true,
      code: 'validation',
      status: 422,
      message: 'Validation error',
      data: {
        field: 'contactInboxId',
        reason: 'notInConversation',
        detail: `Contact inbox ${d.contactInbox} is contact ${d.contact} in inbox ${d.inbox}; conversation ${c.conversation} is contact ${c.contact} in inbox ${c.inbox}`,
      },
    });
    // Another workspace's conversation and contact inbox are not found from here, nor ours from there.
    const theirs = await thread(other);
    expect((await control(theirs.conversation, { contactInboxId: String(theirs.contactInbox), action: 'pass' })).body.data).toEqual({ resource: 'Conversation' });
    expect((await control(c.conversation, { contactInboxId: String(theirs.contactInbox), action: 'pass' })).body.data).toEqual({ resource: 'ContactInbox' });
    expect((await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'pass' }, other.developerToken)).body.data).toEqual({ resource: 'Conversation' });
    expect(await outbox(theirs.contact, other)).toEqual([]);
    expect(await outbox(c.contact)).toEqual([]);
  });

  it('422 for bad input: an unknown action, targetAppId off a pass, metadata on a sync, a chat inbox', async () => {
    const c = await thread();
    const bad = async (body: unknown) => {
      const res = await control(c.conversation, body);
      expect(res.status).toBe(422);
      return res.body.data;
    };
    expect((await bad({ contactInboxId: String(c.contactInbox), action: 'steal' })).issues).toEqual([{ message: 'Invalid option: expected one of "take"|"release"|"pass"|"sync"', path: ['body', 'action'] }]);
    expect((await bad({ contactInboxId: String(c.contactInbox), action: 'take', targetAppId: 'x' })).issues).toEqual([{ message: 'is for pass only, not take', path: ['body', 'targetAppId'] }]);
    expect((await bad({ contactInboxId: String(c.contactInbox), action: 'sync', metadata: 'x' })).issues).toEqual([{ message: 'is not taken by sync', path: ['body', 'metadata'] }]);
    expect((await bad({ action: 'take' })).issues).toEqual([{ message: 'Required', path: ['body', 'contactInboxId'] }]);
    // A chat inbox has no network to hand threads over on.
    const f = fixtures(t.db, ws.id);
    const contact = await f.contact({ email: `chat${++serial}@example.com` });
    const inbox = await f.inbox(`Chat ${serial}`);
    const contactInbox = await f.contactInbox(contact, inbox);
    const conversation = await f.conversation({ contactId: contact, inboxId: inbox });
    const res = await control(conversation, { contactInboxId: String(contactInbox), action: 'pass' });
    expect(res.body).toEqual({
      defined: true,
      code: 'validation',
      status: 422,
      message: 'Validation error',
      data: { field: 'contactInboxId', reason: 'channelUnsupported', detail: `Inbox ${inbox} is a chat inbox: thread control is for photo and net inboxes` },
    });
  });

  describe('GraphQL', () => {
    const token = () => ({ token: ws.developerToken });

    it('threadControl and syncThreadOwner answer as REST does, with global or plain ids', async () => {
      const c = await thread();
      const passed = await gql(t, ThreadControlDocument, { conversationId: globalId('Conversation', c.conversation), contactInboxId: globalId('ContactInbox', c.contactInbox), action: 'pass', targetAppId: 'human-desk' }, token());
      expect(passed.body.errors).toBeUndefined();
      expect(passed.body.data?.threadControl).toMatchObject({ status: 'applied', snapshot: { contactInboxId: String(c.contactInbox), state: 'standby', ownerRole: 'secondary', ownerAppId: 'human-desk', lastEvent: 'pass', lastEventSource: 'api' } });
      const synced = await gql(t, SyncThreadOwnerDocument, { conversationId: String(c.conversation), contactInboxId: String(c.contactInbox) }, token());
      expect(synced.body.data?.syncThreadOwner).toEqual({ status: 'notEscalation', snapshot: passed.body.data?.threadControl.snapshot });
      expect(await outbox(c.contact)).toHaveLength(1);
    });

    it('refuses as REST does: a mismatched contact inbox, targetAppId off a pass, an unknown conversation', async () => {
      const c = await thread();
      const d = await thread();
      const mismatch = await gql(t, ThreadControlDocument, { conversationId: String(c.conversation), contactInboxId: String(d.contactInbox), action: 'take' }, token());
      expect(mismatch.body).toEqual({
        data: null,
        errors: [
          fieldError(
            ['threadControl'],
            {
              defined: true,
              code: 'validation',
              status: 422,
              message: 'Validation error',
              data: {
                field: 'contactInboxId',
                reason: 'notInConversation',
                detail: `Contact inbox ${d.contactInbox} is contact ${d.contact} in inbox ${d.inbox}; conversation ${c.conversation} is contact ${c.contact} in inbox ${c.inbox}`,
              },
            },
            'Validation error',
          ),
        ],
      });
      const offPass = await gql(t, ThreadControlDocument, { conversationId: String(c.conversation), contactInboxId: String(c.contactInbox), action: 'release', targetAppId: 'x' }, token());
      expect(offPass.body).toEqual({ data: null, errors: [invalidInput(['threadControl'], [{ message: 'is for pass only, not release', path: ['targetAppId'] }], 'targetAppId: is for pass only, not release')] });
      const missing = await gql(t, SyncThreadOwnerDocument, { conversationId: '424242', contactInboxId: String(c.contactInbox) }, token());
      expect(missing.body.errors?.[0]?.extensions).toEqual({ defined: true, code: 'notFound', status: 404, data: { resource: 'Conversation' } });
    });

    it('ContactInbox.threadState: every membership in one statement, whatever their number', async () => {
      const c = await thread();
      const f = fixtures(t.db, ws.id);
      const extra: number[] = [];
      for (let i = 0; i < 3; i++) {
        const inbox = await f.inbox(`Net ${++serial}`, 'net');
        await t.db.insertInto('contact_inboxes').values({ workspace_id: ws.id, contact_id: c.contact, inbox_id: inbox, channel: 'net', source_id: `net-${serial}`, created_at: iso(Date.now()) }).execute();
        extra.push(inbox);
      }
      await control(c.conversation, { contactInboxId: String(c.contactInbox), action: 'pass', targetAppId: 'human-desk' });
      const res = await gql(t, ContactThreadStatesDocument, { identifier: String(c.contact) }, token());
      const inboxes = res.body.data!.contact!.inboxes;
      expect(inboxes).toHaveLength(4);
      const byInbox = new Map(inboxes.map((m) => [m.inboxId, m.threadState]));
      expect(byInbox.get(String(c.inbox))).toMatchObject({ state: 'standby', ownerAppId: 'human-desk', lastEvent: 'pass' });
      for (const inbox of extra) {
        const m = inboxes.find((x) => x.inboxId === String(inbox))!;
        expect(m.threadState).toEqual(untouched(Number(m.rawId)));
      }
      const one = await gql(t, ContactThreadStatesDocument, { identifier: String(c.contact) }, token());
      const without = await t.graphql(`query($id: String!) { contact(identifier: $id) { inboxes { rawId inboxId } } }`, { id: String(c.contact) }, token());
      // threadState adds one statement for all four memberships.
      expect(statementsOf(one) - statementsOf(without)).toBe(1);
    });
  });
});
