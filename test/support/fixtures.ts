import { bumpCommentAutomationsVersion } from '../../src/domain/comment-automations/comment-automation.repository.js';
import type { Executor } from '../../src/db/database.js';
import type { FlowItem } from '../../src/domain/flows/flow.schema.js';
import { insertDeliveries, insertExternalWebhook, insertWebhook } from '../../src/domain/webhooks/webhook.repository.js';
import { newSecret } from '../../src/domain/webhooks/webhook-signature.js';
import { insertEvents } from '../../src/domain/workspace-events/workspace-event.repository.js';

/**
 * Direct inserts of known rows for tests, so assertions can name every value. Each returns the new
 * id. Timestamps default to a fixed instant unless given.
 */
export const T0 = '2026-11-01T10:00:00.000Z';

const stamps = (at = T0) => ({ created_at: at, updated_at: at });
const id = async (q: Promise<{ id: number }>) => (await q).id;

/** Default form ids of `leadAd`: each automation claims a form of its own. */
let leadAdSerial = 0;

/** The questions of a `leadForm` unless given. */
export const sampleLeadQuestions = [
  { key: 'full_name', label: 'Full name', type: 'FULL_NAME' },
  { key: 'email', label: 'Email', type: 'EMAIL' },
  { key: 'company', label: 'Company name', type: 'CUSTOM' },
];

export const fixtures = (db: Executor, workspaceId: number) => ({
  contact: (c: { email?: string | null; phone?: string | null; firstName?: string | null; lastName?: string | null; createdAt?: string; lastMessageAt?: string | null } = {}) =>
    id(
      db
        .insertInto('contacts')
        .values({
          workspace_id: workspaceId,
          email: c.email ?? null,
          phone_number: c.phone ?? null,
          first_name: c.firstName ?? null,
          last_name: c.lastName ?? null,
          gender: 'unknown',
          email_verified: 0,
          email_opt_in: 0,
          last_message_at: c.lastMessageAt ?? null,
          ...stamps(c.createdAt),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  customField: (name: string, type = 'shortText', description = '') =>
    id(db.insertInto('custom_fields').values({ workspace_id: workspaceId, name, type, description, ...stamps() }).returning('id').executeTakeFirstOrThrow()),
  fieldValue: (contactId: number, customFieldId: number, value: string) =>
    id(
      db
        .insertInto('contact_custom_fields')
        .values({ workspace_id: workspaceId, contact_id: contactId, custom_field_id: customFieldId, value, ...stamps() })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  tag: (name: string, opts: { deletedAt?: string | null } = {}) =>
    id(db.insertInto('tags').values({ workspace_id: workspaceId, name, deleted_at: opts.deletedAt ?? null, ...stamps() }).returning('id').executeTakeFirstOrThrow()),
  tagContact: async (contactId: number, tagId: number) => {
    await db.insertInto('contact_tags').values({ workspace_id: workspaceId, contact_id: contactId, tag_id: tagId, created_at: T0 }).execute();
  },
  note: (contactId: number, text: string, createdById: number | null = null) =>
    id(
      db
        .insertInto('contact_notes')
        .values({ workspace_id: workspaceId, contact_id: contactId, text, created_by_id: createdById, ...stamps() })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  inbox: (name: string, channel = 'chat') =>
    id(db.insertInto('inboxes').values({ workspace_id: workspaceId, name, channel, source_id: `src-${name}`, status: 'active', ...stamps() }).returning('id').executeTakeFirstOrThrow()),
  contactInbox: (contactId: number, inboxId: number, channel = 'chat') =>
    id(
      db
        .insertInto('contact_inboxes')
        .values({ workspace_id: workspaceId, contact_id: contactId, inbox_id: inboxId, channel, created_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  user: (name: string, email: string) =>
    id(
      db
        .insertInto('users')
        .values({ workspace_id: workspaceId, name, email, email_verified: 1, image: null, is_anonymous: 0, ...stamps() })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  team: (name: string) => id(db.insertInto('inbox_teams').values({ workspace_id: workspaceId, name, ...stamps() }).returning('id').executeTakeFirstOrThrow()),
  /** A conversation; its last activity (the list's order) defaults to its creation time, T0 unless given. */
  conversation: (c: {
    contactId: number;
    inboxId?: number | null;
    userId?: number | null;
    teamId?: number | null;
    followed?: boolean;
    botEnabled?: boolean;
    botResumeAt?: string | null;
    archivedAt?: string | null;
    agentLastReadAt?: string | null;
    lastActivityAt?: string;
    createdAt?: string;
  }) =>
    id(
      db
        .insertInto('conversations')
        .values({
          workspace_id: workspaceId,
          contact_id: c.contactId,
          inbox_id: c.inboxId ?? null,
          assigned_user_id: c.userId ?? null,
          assigned_inbox_team_id: c.teamId ?? null,
          bot_enabled: c.botEnabled === false ? 0 : 1,
          bot_resume_at: c.botResumeAt ?? null,
          archived_at: c.archivedAt ?? null,
          agent_last_read_at: c.agentLastReadAt ?? null,
          followed: c.followed === false ? 0 : 1,
          additional_attributes: '{}',
          last_activity_at: c.lastActivityAt ?? c.createdAt ?? T0,
          ...stamps(c.createdAt),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  sequence: (name: string) => id(db.insertInto('sequences').values({ workspace_id: workspaceId, name, ...stamps() }).returning('id').executeTakeFirstOrThrow()),
  /** A step of the sequence, due a day after the one before it, at any time, sending no flow. */
  sequenceStep: (sequenceId: number, position = 0) =>
    id(
      db
        .insertInto('sequence_steps')
        .values({
          workspace_id: workspaceId,
          sequence_id: sequenceId,
          step_order: position,
          delay_unit: 'days',
          delay_days: 1,
          delay_minutes: null,
          specific_date_time: null,
          flow_id: null,
          is_active: 1,
          anytime: 1,
          send_time_start: null,
          send_time_end: null,
          send_days: '[]',
          ...stamps(),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  subscribe: (contactId: number, sequenceId: number) =>
    id(
      db
        .insertInto('sequence_subscriptions')
        .values({ workspace_id: workspaceId, contact_id: contactId, sequence_id: sequenceId, created_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  commentAutomation: (
    channel: 'photo' | 'net',
    name: string,
    opts: { folderId?: string | null; type?: string; isActive?: boolean; createdAt?: string; post?: { type: string; value: string[] } } = {},
  ) =>
    id(
      db
        .insertInto('comment_automations')
        .values({
          workspace_id: workspaceId,
          channel,
          name,
          type: opts.type ?? (channel === 'net' ? 'chat' : 'photo'),
          folder_id: opts.folderId ?? null,
          is_active: opts.isActive === false ? 0 : 1,
          post: JSON.stringify(opts.post ?? { type: 'all', value: [] }),
          private_reply: JSON.stringify({ type: 'text', value: 'Thanks!' }),
          public_reply: JSON.stringify({ type: 'none', value: null }),
          include_keywords: JSON.stringify({ type: 'all', value: [] }),
          exclude_keywords: JSON.stringify([]),
          options: JSON.stringify(sampleOptions),
          hide_comments: JSON.stringify(sampleHideComments),
          reply_after: JSON.stringify({ type: 'immediately', value: 0 }),
          ...stamps(opts.createdAt),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        // As the repository does: the engine's cache of active automations sees the new one.
        .then(async (row) => (await bumpCommentAutomationsVersion(db, workspaceId), row)),
    ),
  /** A medium (photo) or post (net) of an inbox; `id` is the network's own id. */
  channelPost: (
    channel: 'photo' | 'net',
    inboxId: number,
    p: { id: string; caption?: string | null; mediaType?: string; kind?: 'published' | 'ads' | 'reels'; postedAt?: string; permalink?: string | null; thumbnailUrl?: string | null },
  ) =>
    id(
      db
        .insertInto('channel_posts')
        .values({
          workspace_id: workspaceId,
          inbox_id: inboxId,
          channel,
          external_id: p.id,
          caption: p.caption === undefined ? `Post ${p.id}` : p.caption,
          media_type: p.mediaType ?? 'IMAGE',
          kind: p.kind ?? 'published',
          permalink: p.permalink === undefined ? `https://example.com/p/${p.id}` : p.permalink,
          thumbnail_url: p.thumbnailUrl === undefined ? `https://cdn.example.com/${p.id}.jpg` : p.thumbnailUrl,
          posted_at: p.postedAt ?? T0,
          ...stamps(),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  /** A connected page of the social network (its id on the network is `externalId`); answers the row id. */
  leadPage: (externalId: string, name = 'Bloom & Co.', opts: { inboxId?: number | null; at?: string } = {}) =>
    id(
      db
        .insertInto('lead_pages')
        .values({ workspace_id: workspaceId, external_id: externalId, name, inbox_id: opts.inboxId ?? null, ...stamps(opts.at) })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  /** A lead form of a page (`pageRowId` from leadPage); questions default to full_name, email and company. */
  leadForm: (pageRowId: number, externalId: string, name: string, opts: { status?: 'active' | 'archived'; questions?: { key: string; label: string; type: string }[]; at?: string } = {}) =>
    id(
      db
        .insertInto('lead_forms')
        .values({
          workspace_id: workspaceId,
          lead_page_id: pageRowId,
          external_id: externalId,
          name,
          status: opts.status ?? 'active',
          questions: JSON.stringify(opts.questions ?? sampleLeadQuestions),
          ...stamps(opts.at),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  /** Lead forms of a page in one statement, with the default questions (for seeds that need many). */
  leadForms: async (pageRowId: number, externalIds: string[]) => {
    await db
      .insertInto('lead_forms')
      .values(externalIds.map((external_id, i) => ({ workspace_id: workspaceId, lead_page_id: pageRowId, external_id, name: `Form ${i + 1}`, status: 'active' as const, questions: JSON.stringify(sampleLeadQuestions), ...stamps() })))
      .execute();
  },
  /**
   * A lead-ad automation that claims its forms (one automation per page and form): by default page
   * 1001 and a form of its own, so automations made this way never collide. Mappings, tags and
   * sequences are stored in the order given.
   */
  leadAd: async (
    name: string,
    opts: {
      pageId?: string;
      formIds?: string[];
      isActive?: boolean;
      reply?: unknown;
      at?: string;
      fieldMappings?: { questionKey: string; customFieldId: number }[];
      tagIds?: number[];
      sequenceIds?: number[];
    } = {},
  ) => {
    const pageId = opts.pageId ?? '1001';
    const formIds = opts.formIds ?? [String(800000 + ++leadAdSerial)];
    const automation = await id(
      db
        .insertInto('lead_ad_automations')
        .values({
          workspace_id: workspaceId,
          name,
          page_id: pageId,
          form_ids: JSON.stringify(formIds),
          is_active: opts.isActive === false ? 0 : 1,
          reply: JSON.stringify(opts.reply ?? { type: 'text', value: 'Hi' }),
          ...stamps(opts.at),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    const owner = { workspace_id: workspaceId, automation_id: automation };
    await db.insertInto('lead_ad_form_claims').values(formIds.map((form_id) => ({ ...owner, page_id: pageId, form_id }))).execute();
    const { fieldMappings = [], tagIds = [], sequenceIds = [] } = opts;
    if (fieldMappings.length) await db.insertInto('lead_ad_field_mappings').values(fieldMappings.map((m) => ({ ...owner, question_key: m.questionKey, custom_field_id: m.customFieldId }))).execute();
    if (tagIds.length) await db.insertInto('lead_ad_tags').values(tagIds.map((tag_id) => ({ ...owner, tag_id }))).execute();
    if (sequenceIds.length) await db.insertInto('lead_ad_sequences').values(sequenceIds.map((sequence_id) => ({ ...owner, sequence_id }))).execute();
    return automation;
  },
  /** A dynamic image, as stored (an empty 1080 x 1080 canvas unless `data` is given). */
  dynamicImage: (name: string, at = T0, opts: { customFieldId?: number | null; enabled?: boolean; data?: unknown; backgroundUrl?: string } = {}) =>
    id(
      db
        .insertInto('dynamic_images')
        .values({
          workspace_id: workspaceId,
          name,
          custom_field_id: opts.customFieldId ?? null,
          background_url: opts.backgroundUrl ?? 'https://cdn.example.com/bg.png',
          image_url: 'https://cdn.example.com/out.png',
          enabled: opts.enabled === false ? 0 : 1,
          data: JSON.stringify(opts.data ?? { width: 1080, height: 1080, elements: [] }),
          ...stamps(at),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  errorLog: (detail: string, opts: { action?: string; at?: string; contactId?: number | null; httpCode?: string } = {}) =>
    id(
      db
        .insertInto('error_logs')
        .values({
          workspace_id: workspaceId,
          contact_id: opts.contactId ?? null,
          action: opts.action ?? 'sendMessage',
          detail,
          http_code: opts.httpCode ?? '400',
          ...stamps(opts.at),
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  /** A webhook at a public example URL (nothing is sent unless a job runner runs), firing on tagApplied. */
  webhook: async (name: string, opts: { tagId?: number } = {}) =>
    Number(
      (
        await insertWebhook(db, workspaceId, {
          name,
          url: `https://hooks.example.com/${encodeURIComponent(name)}`,
          conditions: [{ type: 'tagApplied', ...(opts.tagId !== undefined ? { sourceId: String(opts.tagId) } : {}) }],
          secret: newSecret(),
          now: T0,
        })
      ).id,
    ),
  /** A pending delivery to the webhook of a tag_applied event (already fanned out), as its id. */
  webhookDelivery: async (webhookId: number) => {
    const [event] = await insertEvents(db, workspaceId, [
      { type: 'tagApplied', contact_id: null, source_id: null, body: JSON.stringify({ event: 'tag_applied', contact_id: null, timestamp: T0, tag: 'vip' }), occurred_at: T0, fanned_out: true },
    ]);
    const [delivery] = await insertDeliveries(db, [{ workspaceId, webhookId, eventId: event!.id }], T0);
    return Number(delivery!.id);
  },
  /** A flow of these items (one text message unless given), as its id. */
  flow: (name: string, items: readonly FlowItem[] = [{ type: 'text', text: 'Hello {{first_name}}' }]) =>
    id(
      db
        .insertInto('flows')
        .values({ workspace_id: workspaceId, name, items: JSON.stringify(items), ...stamps() })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ),
  externalWebhook: async (event: string) =>
    Number((await insertExternalWebhook(db, workspaceId, { url: `https://hooks.example.com/flows/${encodeURIComponent(event)}`, event, provider: 'n8n', now: T0 })).id),
});

export const sampleOptions = {
  replyToNewContactsOnly: false,
  replyOncePerUserPerPost: true,
  likeUserComment: false,
  replyToUsersWhoCommentedOnOtherPosts: false,
  ignoreCommentReplies: true,
  trackUserTags: false,
};

export const sampleHideComments = {
  all: false,
  hasPhoneNumber: false,
  hasImage: false,
  hasVideo: false,
  hasLink: false,
  hasKeywords: false,
  keywords: [],
  showCommentsAfter: 'none',
};

/** A valid POST /v1/photo-comments body. */
export const photoCommentBody = () => ({
  name: 'Spring promo',
  type: 'photo',
  post: { type: 'published', value: ['17890001'] },
  privateReply: { type: 'text', value: 'Thanks for your comment!', values: [{ value: 'Hi there' }] },
  publicReply: { type: 'text', value: 'Check your DMs', },
  includeKeywords: { type: 'contain', value: ['price'] },
  excludeKeywords: ['spam'],
  options: { ...sampleOptions },
  hideComments: { ...sampleHideComments },
  replyAfter: { type: 'seconds', value: 30 },
});
