import { sandboxAdapter } from '../../../src/channels/sandbox.adapter.js';
import { fixtures, T0 } from '../fixtures.js';
import { seedLeadAds } from './lead-ads.js';
import { seedMessages } from './messages.js';
import { seedThreadControl } from './thread-control.js';
import { seedWebhooks } from './webhooks.js';
import { seedFolders } from './folders.js';
import { seedFlows } from './flows.js';
import { seedContactTransfers } from './contact-transfers.js';
import type { TestApp, TestWorkspace } from '../harness.js';

/** A request that succeeds for one operation, given a workspace seeded by `seedContractWorkspace`. */
export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/**
 * Known rows of one workspace, enough for every operation to succeed once. Shared by every area's
 * calls (contract-calls/*.ts): add rows here when a new operation needs one.
 */
export async function seedContractWorkspace(t: TestApp, ws: TestWorkspace) {
  const f = fixtures(t.db, ws.id);
  const contact = await f.contact({ email: 'ada@example.com', phone: '+15550001' });
  // Contacts that delete and bulk operations may consume, one per operation that removes one.
  const spare = async (name: string) => f.contact({ email: `${name}@example.com` });
  const planField = await f.customField('Plan');
  await f.fieldValue(contact, planField, 'gold');
  const scoreField = await f.customField('Score', 'number');
  const onboarding = await f.sequence('Onboarding');
  await f.subscribe(contact, onboarding);
  const newsletter = await f.sequence('Newsletter');
  const vip = await f.tag('vip');
  await f.tagContact(contact, vip);
  const lead = await f.tag('lead');
  const note = await f.note(contact, 'Asked about pricing');
  const inbox = await f.inbox('Support');
  await f.contactInbox(contact, inbox);
  const badge = await f.dynamicImage('Badge');
  // A connected photo account (its sourceId is what webhook and dev-event entries name), and
  // developmentMode on, which dev events need.
  const photoAccount = await f.inbox('Photo account', 'photo');
  await t.db.updateTable('workspaces').set({ development_mode: 1 }).where('id', '=', ws.id).execute();
  await f.errorLog('Token expired for page');
  // One private reply in the outbox, recorded by the sandbox adapter (outbox.list filters by the contact).
  await sandboxAdapter(t.db).sendPrivateReply({
    workspaceId: ws.id,
    inbox: { id: inbox, channel: 'photo', sourceId: 'src-Support' },
    commentId: '17858893269000001',
    postId: '17890001',
    contactId: contact,
    content: { type: 'text', text: 'Thanks for asking!' },
  });
  return {
    contact,
    spareContacts: { delete: await spare('spare-delete'), bulkDelete: await spare('spare-bulk-delete') },
    customFields: { plan: planField, score: scoreField },
    disposableCustomField: await f.customField('To delete'),
    sequences: { onboarding, newsletter },
    // Steps of the onboarding sequence: one the list and step-contacts calls read, one the delete call consumes.
    steps: { kept: await f.sequenceStep(onboarding), disposable: await f.sequenceStep(onboarding, 1) },
    tags: { vip, lead },
    disposable: { tag: await f.tag('to-delete'), sequence: await f.sequence('To delete') },
    note,
    disposableNote: await f.note(contact, 'Call back on Monday'),
    inbox,
    photoAccount: { inbox: photoAccount, sourceId: 'src-Photo account' },
    // The contact's open conversation in the photo account, a message of it, its network profile.
    messages: await seedMessages(t.db, ws.id, contact, photoAccount),
    // The contact inbox of that conversation (thread control names it).
    threadControl: await seedThreadControl(t.db, ws.id, contact, photoAccount),
    netAutomation: await f.commentAutomation('net', 'Net rule'),
    photoAutomation: await f.commentAutomation('photo', 'Photo rule'),
    // Comment automations the delete calls consume, and the posts a postIds selector may name.
    disposableAutomations: { photo: await f.commentAutomation('photo', 'Photo to delete'), net: await f.commentAutomation('net', 'Net to delete') },
    channelPosts: {
      photo: await f.channelPost('photo', inbox, { id: '17890001', kind: 'published' }),
      net: await f.channelPost('net', inbox, { id: '1001_2002', kind: 'ads', mediaType: 'photo' }),
    },
    // A connected page with forms; lead-ad automations on forms of their own (leadAds: for the delete calls).
    ...(await seedLeadAds(f, ws.id, { customField: planField, tag: vip, sequence: onboarding })),
    // A conversation in the inbox, assigned to an agent and a team (the list's filters name them).
    ...(await (async () => {
      const agent = await f.user('Agent', 'agent@company.example');
      const team = await f.team('Support team');
      return { agent, team, conversation: await f.conversation({ contactId: contact, inboxId: inbox, userId: agent, teamId: team }) };
    })()),
    dynamicImages: {
      badge,
      disposable: await f.dynamicImage('To delete'),
      // Rendered without the network: no background picture, a coloured canvas and a text of the contact's name.
      renderable: await f.dynamicImage('Name tag', T0, {
        backgroundUrl: '',
        data: {
          width: 120,
          height: 40,
          backgroundColor: '#FFFFFF',
          elements: [{ id: 'name', x: 0, y: 0, width: 120, height: 40, type: 'text', text: 'Hi {{first_name}}', customFieldId: '', fontSize: 16, color: '#000000', align: 'left', fallback: 'there' }],
        },
      }),
    },
    webhooks: await seedWebhooks(t, ws, vip),
    // Sequence and comment automation folders (the sequence one also files the create call's sequence).
    folders: await seedFolders(t.db, ws.id),
    flows: await seedFlows(t.db, ws.id, vip),
    transfers: await seedContactTransfers(t, ws.id),
  };
}

export type Seeded = Awaited<ReturnType<typeof seedContractWorkspace>>;

/** operationId -> the call that succeeds for it. Each area's module exports one of these. */
export type CallTable = Record<string, (s: Seeded) => Call>;
