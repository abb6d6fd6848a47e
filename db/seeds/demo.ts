import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.js';
import { createWorkspace, type CreatedWorkspace } from '../../src/domain/workspaces/workspace.service.js';
import { mulberry32, pick } from './prng.js';
import {
  automationOptions,
  customFieldDefs,
  errorActions,
  errorDetails,
  demoExchange,
  firstNames,
  genders,
  hideNothing,
  greetingCardData,
  imageData,
  lastNames,
  noteTexts,
  places,
  tagNames,
} from './samples.js';

const DAY = 86_400_000;

/**
 * Fills a workspace with a small, deterministic, realistic data set in every resource area, in one
 * transaction (only the transaction handle is used inside it). Times are relative to now so the
 * monthly-active-contact count sees some contacts this month.
 */
export async function seedDemoData(db: Kysely<DB>, workspaceId: number, ownerUserId: number): Promise<void> {
  const random = mulberry32(20261122);
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
  const ws = { workspace_id: workspaceId };
  const stamps = (daysAgo: number) => ({ created_at: at(daysAgo), updated_at: at(daysAgo) });

  await db.transaction().execute(async (trx) => {
    const ids = async <T extends keyof DB & string>(table: T, rows: Record<string, unknown>[]) =>
      (await trx.insertInto(table).values(rows as never).returning('id' as never).execute()).map((r) => (r as unknown as { id: number }).id);

    const agents = await ids('users', ['Maya Chen', 'Tom Becker', 'Inés Ortega'].map((name, i) => ({
      ...ws, name, email: `${name.split(' ')[0].toLowerCase()}@demo.example`, email_verified: 1, image: null, is_anonymous: 0, ...stamps(60 - i),
    })));
    const users = [ownerUserId, ...agents];

    const contacts = await ids('contacts', Array.from({ length: 25 }, (_, i) => {
      const first = firstNames[i % firstNames.length];
      const last = lastNames[(i * 7) % lastNames.length];
      const place = places[i % places.length];
      const daysAgo = i < 8 ? i : 20 + i * 3;
      return {
        ...ws,
        first_name: first,
        last_name: last,
        email: i % 6 === 5 ? null : `${first}.${last}${i}@mail.example`.toLowerCase(),
        phone_number: i % 4 === 3 ? null : `+1415555${String(1000 + i).padStart(4, '0')}`,
        avatar: `https://cdn.example.com/avatars/${i + 1}.png`,
        ref: i % 3 === 0 ? `ig-${1000 + i}` : null,
        ...place,
        location: `${place.city}, ${place.country}`,
        gender: genders[i % 3],
        email_verified: i % 2,
        email_opt_in: i % 3 === 0 ? 1 : 0,
        subscribed_at: at(daysAgo),
        broadcast_subscribed_at: i % 2 === 0 ? at(daysAgo) : null,
        last_read_at: at(Math.max(0, daysAgo - 1)),
        blocked_at: i === 24 ? at(2) : null,
        last_message_at: i < 15 ? at(i % 10) : null,
        ...stamps(daysAgo),
      };
    }));

    const fields = await ids('custom_fields', customFieldDefs.map((f, i) => ({ ...ws, ...f, ...stamps(90 - i) })));
    const sampleValue = (type: string, i: number) =>
      type === 'number' ? String(i * 3 % 17) : type === 'date' ? `199${i % 10}-0${1 + (i % 9)}-1${i % 9}` : type === 'boolean' ? String(i % 2 === 0) : type === 'longText' ? 'Do you ship to Canada?' : `Company ${i}`;
    await trx.insertInto('contact_custom_fields').values(contacts.flatMap((contactId, i) =>
      fields.filter((_, f) => (i + f) % 4 !== 0).map((fieldId, f) => ({ ...ws, contact_id: contactId, custom_field_id: fieldId, value: sampleValue(customFieldDefs[fields.indexOf(fieldId)].type, i + f), ...stamps(5) })),
    )).execute();

    const tags = await ids('tags', tagNames.slice(0, 6).map((name, i) => ({ ...ws, name, folder_id: i < 2 ? 1 : null, deleted_at: null, ...stamps(80 - i) })));
    await trx.insertInto('contact_tags').values(contacts.flatMap((contactId, i) =>
      tags.filter((_, t) => (i + t) % 3 === 0).map((tagId) => ({ ...ws, contact_id: contactId, tag_id: tagId, created_at: at(4) })),
    )).execute();

    await trx.insertInto('contact_notes').values(contacts.slice(0, 12).map((contactId, i) => ({
      ...ws, contact_id: contactId, created_by_id: users[i % users.length], text: noteTexts[i % noteTexts.length], ...stamps(i),
    }))).execute();

    const inboxes = await ids('inboxes', [
      { name: 'Photo DMs', channel: 'photo', source_id: '17841400000000001' },
      { name: 'Net page inbox', channel: 'net', source_id: '102030405060708' },
      { name: 'Website chat', channel: 'chat', source_id: 'web-widget-1' },
    ].map((inbox, i) => ({ ...ws, ...inbox, status: 'active', ...stamps(100 - i) })));
    const inboxChannels = ['photo', 'net', 'chat'];
    await trx.insertInto('contact_inboxes').values(contacts.flatMap((contactId, i) =>
      // Each with the person's id on that network, so the API and the sandbox can send to them.
      [inboxes[i % 3], ...(i % 4 === 0 ? [inboxes[(i + 1) % 3]] : [])].map((inboxId) => ({
        ...ws, contact_id: contactId, inbox_id: inboxId, channel: inboxChannels[inboxes.indexOf(inboxId)], source_id: `demo-person-${i + 1}`, created_at: at(10),
      })),
    )).execute();

    const teams = await ids('inbox_teams', ['Sales', 'Support'].map((name, i) => ({ ...ws, name, ...stamps(70 - i) })));
    const conversations = await ids('conversations', contacts.slice(0, 15).map((contactId, i) => ({
      ...ws,
      contact_id: contactId,
      inbox_id: inboxes[i % 3],
      assigned_user_id: i % 5 === 4 ? null : users[i % users.length],
      assigned_inbox_team_id: i % 4 === 3 ? null : teams[i % 2],
      bot_enabled: i % 3 === 0 ? 0 : 1,
      followed: i % 4 === 1 ? 0 : 1,
      additional_attributes: JSON.stringify({ source: 'demo', campaign: i % 2 ? 'spring' : 'organic' }),
      ai_context_last_message_id: null,
      bot_resume_at: null,
      archived_at: i === 14 ? at(1) : null,
      contact_last_read_at: at(i % 10),
      agent_last_read_at: at(i % 10),
      last_activity_at: at(i % 10),
      contact_replied_at: at(i % 10),
      admin_replied_at: i % 2 === 0 ? at(i % 10) : null,
      ...stamps(20 + i),
    })));

    // A short exchange in each conversation (two to four messages, the contact first), so that a
    // contact's last message and a conversation's thread have something to show.
    await trx.insertInto('messages').values(conversations.flatMap((conversationId, i) =>
      demoExchange.slice(0, 2 + (i % 3)).map((text, m) => ({
        ...ws,
        conversation_id: conversationId,
        contact_id: contacts[i],
        inbox_id: inboxes[i % 3],
        direction: m % 2 === 0 ? 'incoming' : 'outgoing',
        external_id: `demo-${i}-${m}`,
        text,
        attachments: '[]',
        status: m % 2 === 0 ? 'received' : 'sent',
        error: null,
        automation_kind: null,
        automation_id: null,
        seen_at: null,
        clicked_at: null,
        created_at: new Date(now - (i % 10) * DAY - (4 - m) * 600_000).toISOString(),
      })),
    ) as never).execute();

    const sequences = await ids('sequences', ['Welcome series', 'Abandoned cart follow-up', 'Webinar reminders'].map((name, i) => ({ ...ws, name, ...stamps(50 - i) })));
    await trx.insertInto('sequence_subscriptions').values(contacts.flatMap((contactId, i) =>
      sequences.filter((_, s) => (i + s) % 3 !== 2).map((sequenceId) => ({ ...ws, contact_id: contactId, sequence_id: sequenceId, created_at: at(3) })),
    )).execute();

    const automation = (channel: 'photo' | 'net', name: string, type: string, i: number) => ({
      ...ws,
      channel,
      name,
      type,
      folder_id: i % 2 === 0 ? null : String(10 + i),
      is_active: i === 2 ? 0 : 1,
      start_time: i === 1 ? '09:00' : null,
      end_time: i === 1 ? '18:30' : null,
      replies_count: 120 + i * 31, sent_count: 110 + i * 29, delivered_count: 100 + i * 25, seen_count: 80 + i * 20,
      clicked_count: 12 + i * 3, failed_count: i, missed_count: 2 * i,
      post: JSON.stringify(i === 0 ? { type: 'all', value: [] } : { type: 'postIds', value: channel === 'photo' ? [`1789${i}0001`, `1789${i}0002`] : [`102030405060708_900${2 * i}`, `102030405060708_900${2 * i + 1}`] }),
      private_reply: JSON.stringify({ type: 'text', value: 'Thanks for your comment! Here is the link: https://shop.example.com', values: [{ value: 'Check your inbox 📬' }] }),
      public_reply: JSON.stringify(i === 2 ? { type: 'none', value: null } : { type: 'text', value: 'Sent you a DM!' }),
      include_keywords: JSON.stringify(i === 0 ? { type: 'all', value: [] } : { type: 'contain', value: ['price', 'link'] }),
      exclude_keywords: JSON.stringify(['spam', 'scam']),
      options: JSON.stringify(automationOptions),
      hide_comments: JSON.stringify({ ...hideNothing, showCommentsAfter: i === 1 ? '1d' : 'none' }),
      reply_after: JSON.stringify(i === 0 ? { type: 'immediately', value: 0 } : { type: 'randomWithin5Minutes', value: 5 }),
      ...stamps(30 - i),
    });
    await trx.insertInto('comment_automations').values([
      automation('photo', 'Spring giveaway replies', 'photo', 0),
      automation('photo', 'Price question auto-DM', 'photoNet', 1),
      automation('photo', 'Reels link sender', 'photo', 2),
      automation('net', 'Page post FAQ', 'chat', 0),
      automation('net', 'Promo post replies', 'chat', 1),
      automation('net', 'Hide spam comments', 'chat', 2),
    ]).execute();

    // The media and posts of the connected accounts (photo: the photo inbox; net: the page inbox).
    // The automations' postIds above name some of them.
    const photoMedia = [
      { external_id: '178900001', caption: 'Spring drop is here 🌸 Comment "price" for the list', media_type: 'IMAGE', kind: 'published' },
      { external_id: '178900002', caption: 'Behind the scenes at the studio', media_type: 'VIDEO', kind: 'reels' },
      { external_id: '178910001', caption: 'Which colour should we restock?', media_type: 'CAROUSEL_ALBUM', kind: 'published' },
      { external_id: '178910002', caption: 'Sponsored: 20% off this weekend', media_type: 'IMAGE', kind: 'ads' },
      { external_id: '178920001', caption: 'How we pack your orders', media_type: 'VIDEO', kind: 'reels' },
      { external_id: '178920002', caption: null, media_type: 'IMAGE', kind: 'published' },
    ] as const;
    const netPosts = [
      { external_id: '102030405060708_9001', caption: 'We are open on Sunday this week!', media_type: 'status', kind: 'published' },
      { external_id: '102030405060708_9002', caption: 'New arrivals: the spring collection', media_type: 'photo', kind: 'published' },
      { external_id: '102030405060708_9003', caption: 'Sponsored: free shipping over $50', media_type: 'photo', kind: 'ads' },
      { external_id: '102030405060708_9004', caption: 'A day at the workshop', media_type: 'video', kind: 'reels' },
      { external_id: '102030405060708_9005', caption: 'Read our sustainability report', media_type: 'link', kind: 'published' },
    ] as const;
    const permalink = (channel: 'photo' | 'net', id: string) => (channel === 'photo' ? `https://photo.example.com/p/${id}/` : `https://net.example.com/${id.replace('_', '/posts/')}`);
    await trx.insertInto('channel_posts').values([
      ...photoMedia.map((m, i) => ({ ...ws, inbox_id: inboxes[0], channel: 'photo' as const, ...m, permalink: permalink('photo', m.external_id),
        thumbnail_url: `https://cdn.example.com/media/${m.external_id}.jpg`, posted_at: at(2 + i * 4), ...stamps(2 + i * 4) })),
      ...netPosts.map((m, i) => ({ ...ws, inbox_id: inboxes[1], channel: 'net' as const, ...m, permalink: permalink('net', m.external_id),
        thumbnail_url: m.media_type === 'status' ? null : `https://cdn.example.com/posts/${m.external_id}.jpg`, posted_at: at(1 + i * 5), ...stamps(1 + i * 5) })),
    ]).execute();

    // The connected page and its lead forms; the automations below answer three of the four.
    const [page] = await ids('lead_pages', [{ ...ws, inbox_id: inboxes[1], external_id: '102030405060708', name: 'Bloom & Co.', ...stamps(100) }]);
    const question = (key: string, label: string, type: string) => ({ key, label, type });
    const email = question('email', 'Email', 'EMAIL');
    const fullName = question('full_name', 'Full name', 'FULL_NAME');
    await trx.insertInto('lead_forms').values([
      { external_id: '550001', name: 'Spring coupon', status: 'active', questions: [fullName, email, question('company', 'Company name', 'CUSTOM')] },
      { external_id: '550002', name: 'Webinar: March', status: 'active', questions: [fullName, email, question('phone_number', 'Phone number', 'PHONE')] },
      { external_id: '550003', name: 'Webinar: April', status: 'active', questions: [fullName, email, question('wants_sms', 'Text me updates?', 'CUSTOM')] },
      { external_id: '550004', name: 'Wholesale enquiry', status: 'archived', questions: [fullName, email, question('order_volume', 'Orders per month', 'CUSTOM')] },
    ].map((f, i) => ({ ...ws, lead_page_id: page, ...f, status: f.status as 'active' | 'archived', questions: JSON.stringify(f.questions), ...stamps(60 - i * 10) }))).execute();

    const leadAds = await ids('lead_ad_automations', [
      { ...ws, name: 'Spring lead form', page_id: '102030405060708', form_ids: JSON.stringify(['550001']), is_active: 1, reply: JSON.stringify({ type: 'text', value: 'Thanks {{first_name}}! Your coupon: SPRING20' }), ...stamps(15) },
      { ...ws, name: 'Webinar sign-ups', page_id: '102030405060708', form_ids: JSON.stringify(['550002', '550003']), is_active: 1, reply: JSON.stringify({ type: 'flow', value: 'webinar-welcome' }), ...stamps(9) },
    ]);
    await trx.insertInto('lead_ad_form_claims').values([
      { ...ws, automation_id: leadAds[0], page_id: '102030405060708', form_id: '550001' },
      { ...ws, automation_id: leadAds[1], page_id: '102030405060708', form_id: '550002' },
      { ...ws, automation_id: leadAds[1], page_id: '102030405060708', form_id: '550003' },
    ]).execute();
    await trx.insertInto('lead_ad_field_mappings').values([
      { ...ws, automation_id: leadAds[0], question_key: 'company', custom_field_id: fields[0] },
      { ...ws, automation_id: leadAds[1], question_key: 'wants_sms', custom_field_id: fields[3] },
    ]).execute();
    await trx.insertInto('lead_ad_tags').values([
      { ...ws, automation_id: leadAds[0], tag_id: tags[1] },
      { ...ws, automation_id: leadAds[1], tag_id: tags[1] },
    ]).execute();
    await trx.insertInto('lead_ad_sequences').values([{ ...ws, automation_id: leadAds[1], sequence_id: sequences[2] }]).execute();

    await trx.insertInto('dynamic_images').values(['Birthday card', 'Order summary', 'Promo banner', 'Welcome badge'].map((name, i) => ({
      ...ws, name, custom_field_id: i % 2 === 0 ? fields[0] : null, background_url: `https://cdn.example.com/backgrounds/${i + 1}.png`,
      image_url: `https://cdn.example.com/rendered/${i + 1}.png`, enabled: i === 3 ? 0 : 1, data: JSON.stringify(imageData(i % 2 === 0 ? fields[0] : null)), ...stamps(40 - i * 5),
    }))).execute();

    // Drawn with nothing from the network (the other demo images' pictures are on example hosts):
    // a coloured canvas, a static title, the contact's name, a greeting and a QR code per contact.
    const [greetingCard] = await ids('dynamic_images', [{
      ...ws, name: 'Greeting card', custom_field_id: null, background_url: '', image_url: '', enabled: 1, data: JSON.stringify(greetingCardData), ...stamps(1),
    }]);

    // Flows naming the rows above (a tag, a sequence, a custom field, the greeting card), valid by
    // the API's rules (test/contract.demo-data checks them).
    await ids('flows', [
      {
        ...ws, name: 'Welcome flow', ...stamps(30),
        items: JSON.stringify([
          { type: 'text', text: 'Hi {{first_name}}, thanks for reaching out!' },
          { type: 'quickReplies', text: 'What can we help you with?', replies: [{ title: 'Pricing', payload: 'PRICING' }, { title: 'Shipping', payload: 'SHIPPING' }, { title: 'Talk to a human' }] },
          { type: 'addTag', tagId: String(tags[1]) },
          { type: 'subscribeSequence', sequenceId: String(sequences[0]) },
        ]),
      },
      {
        ...ws, name: 'Spring sale', ...stamps(2),
        items: JSON.stringify([
          { type: 'text', text: 'Our spring sale starts today, {{first_name}}: 20% off everything.' },
          { type: 'image', url: 'https://cdn.example.com/campaigns/spring-sale.png' },
          { type: 'dynamicImage', imageId: String(greetingCard) },
          { type: 'setCustomField', customFieldId: String(fields[3]), value: true },
          { type: 'customEvent', name: 'spring_sale_clicked' },
        ]),
      },
    ]);

    await trx.insertInto('error_logs').values(Array.from({ length: 30 }, (_, i) => ({
      ...ws, contact_id: i % 3 === 0 ? null : contacts[i % contacts.length], action: pick(random, errorActions), detail: pick(random, errorDetails),
      http_code: pick(random, ['400', '401', '404', '429', '500', '503']), ...stamps(i * 0.7),
    }))).execute();
  });
}

/** The demo workspace `npm start` seeds (and `cli workspace create --demo` fills). */
export async function createDemoWorkspace(db: Kysely<DB>, opts: { name?: string } = {}): Promise<CreatedWorkspace> {
  const created = await createWorkspace(db, { name: opts.name ?? 'Demo Workspace', developmentMode: true });
  await seedDemoData(db, created.workspace.id, created.owner.id);
  return created;
}
