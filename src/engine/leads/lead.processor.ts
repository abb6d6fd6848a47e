import type { Lead } from '../../domain/channels/channel-adapter.js';
import { isChannelError } from '../../domain/channels/channel-error.js';
import { inTransaction, type Executor } from '../../db/database.js';
import { nowIso } from '../../db/values.js';
import { DuplicateContactError, findContactById } from '../../domain/contacts/contact.repository.js';
import { newContactEvent } from '../../domain/contacts/contact.service.js';
import { customFieldValueEvent } from '../../domain/custom-fields/contact-custom-field.service.js';
import { canonicalValue } from '../../domain/custom-fields/custom-field-value.js';
import { contactValues, customFieldsByIds, upsertValue } from '../../domain/custom-fields/custom-field.repository.js';
import { channelEventOutcome, findChannelEvent, markChannelEventProcessed, type StoredEvent } from '../../domain/events/channel-event.repository.js';
import type { LeadEvent } from '../../domain/events/channel-event.schema.js';
import { findLeadAdAutomation } from '../../domain/lead-ads/lead-ad.repository.js';
import { noteOutgoingMessage } from '../../domain/messages/message.repository.js';
import { subscribeContact } from '../../domain/sequences/sequence.repository.js';
import { startSubscriptions } from '../../domain/sequences/sequence-progress.service.js';
import { findFlowById } from '../../domain/flows/flow.repository.js';
import { idNumber } from '../../db/values.js';
import type { Flow } from '../../domain/flows/flow.schema.js';
import type { AdapterInbox } from '../../domain/channels/channel-adapter.js';
import { runFlow } from '../flows/flow-runner.js';
import { sequenceEvent } from '../../domain/sequences/sequence.service.js';
import { addContactTags } from '../../domain/tags/tag.repository.js';
import { tagEvent } from '../../domain/tags/tag.service.js';
import { recordEvents } from '../../domain/workspace-events/workspace-event.service.js';
import type { NewEvent } from '../../domain/workspace-events/workspace-event.schema.js';
import type { JobHelpers } from '../../queue/types.js';
import { touchContactActivity } from '../../domain/contacts/contact-link.service.js';
import { threadHeldByOther } from '../../domain/thread-control/thread-state.service.js';
import type { EngineDeps } from '../context.js';
import type { EventProcessor } from '../process-event.js';
import { placeholderContext, replyContent } from '../reply-content.js';
import { answerOf, leadPerson } from './lead-answers.js';
import { findActingLeadAd, type ActingLeadAd } from './lead-automation.js';
import { upsertLeadContact } from './lead-contact.js';
import { logChannelError, writeErrorLog } from './lead-error-log.js';
import { storeMessage } from '../../domain/messages/message-store.service.js';

/**
 * Lead-ad automations acting on new leads (docs/engine.md, "Lead-ad automations act on new leads").
 *
 * `processLead` (the `lead` event processor): finds the active automation claiming the lead's page
 * and form, fetches the lead through the adapter (outside any transaction), then in ONE transaction
 * creates or updates the contact with its contact inbox and conversation, stores the mapped custom
 * field values, adds the tags, subscribes the sequences, records what changed as workspace events
 * (newContact for a contact it created, with the values mapped; contactInfoUpdated for an existing
 * one's fields; customFieldValueChanged, tagApplied, subscribedToSequence for what the contact did
 * not have yet), enqueues the reply job and marks the event processed. A rerun of the event's job
 * (its worker died) finds the event processed and does nothing; a rerun before that commit finds
 * nothing done. So each lead id acts once, and records its events once.
 *
 * `lead.reply` (the reply job, key `lead:<eventId>:reply`): sends the automation's reply as a
 * message to the lead and stores it on the conversation (sent or failed).
 */

export const LEAD_REPLY_TASK = 'lead.reply';

export interface LeadReplyPayload {
  workspaceId: number;
  eventId: number;
  automationId: number;
  contactId: number;
  conversationId: number;
}

/** What the adapter's sendMessage is addressed to for a lead: the network lets a page message a lead by its lead id. */
export const leadRecipient = (leadId: string): string => `lead:${leadId}`;

/** The seed of the reply's choice among `values`: the same lead always gets the same text. */
export const leadReplySeed = (automationId: number | string, leadId: string): string => `leadAd:${automationId}:lead:${leadId}`;

/** The reply job's key, and the send's idempotency key: one reply per lead event. */
export const leadReplyKey = (eventId: number): string => `lead:${eventId}:reply`;

const MAX_TX_TRIES = 5;

/** Outcome markers of the reply job (the event's outcome is extended with one of them). */
const REPLY_DONE = /; (replied|reply failed|reply skipped)/;

/** Fetches the lead; a ChannelError is logged, and rethrown (retried) while it is worth another try. */
async function fetchLead(deps: EngineDeps, stored: StoredEvent, event: LeadEvent, helpers: JobHelpers): Promise<Lead | string> {
  try {
    return await deps.adapter.fetchLead({ workspaceId: stored.workspaceId, inbox: stored.inbox, leadId: event.leadId });
  } catch (err) {
    if (!isChannelError(err)) throw err;
    await logChannelError(deps.db, stored.workspaceId, stored.inbox.channel, err);
    if (err.retryable && helpers.job.attempt < helpers.job.maxAttempts) throw err;
    return `failed: lead ${event.leadId} could not be fetched (${err.reason})`;
  }
}

/**
 * Stores each mapped answer that fits its field; one that does not is an error log naming the
 * question, field and reason. Answers the counts, the customFieldValueChanged of each field whose
 * value is not what it was (an existing contact's values are read first; a new contact has none),
 * and the values stored by field name (a new contact's newContact holds them).
 */
async function storeMappedAnswers(
  trx: Executor,
  workspaceId: number,
  automation: ActingLeadAd,
  lead: Lead,
  contactId: number,
  created: boolean,
): Promise<{ stored: number; rejected: number; events: NewEvent[]; values: Record<string, string> }> {
  const fields = new Map((await customFieldsByIds(trx, workspaceId, automation.fieldMappings.map((m) => m.customFieldId))).map((f) => [Number(f.id), f]));
  let stored = 0;
  let rejected = 0;
  const now = nowIso();
  const answers: { fieldId: number; value: string }[] = [];
  for (const mapping of automation.fieldMappings) {
    const field = fields.get(mapping.customFieldId);
    const answer = answerOf(lead, mapping.questionKey);
    if (!field || answer === null) continue;
    const canonical = canonicalValue(field.type, field.options, answer);
    if (canonical.ok) {
      answers.push({ fieldId: mapping.customFieldId, value: canonical.value });
      continue;
    }
    rejected++;
    await writeErrorLog(trx, workspaceId, {
      contactId,
      action: 'leadAd',
      detail: `Lead ${lead.id} (automation ${automation.id} "${automation.name}"): the answer to question "${mapping.questionKey}" (${JSON.stringify(answer)}) was not stored in custom field "${field.name}" (${field.type}): value ${canonical.message}`,
      httpCode: '422',
    });
  }
  // The values before, in one statement (none for a contact created just now), then the writes.
  const before = created || answers.length === 0 ? new Map<number, string>() : await contactValues(trx, workspaceId, contactId, [...new Set(answers.map((a) => a.fieldId))]);
  const after = new Map(before);
  for (const { fieldId, value } of answers) {
    await upsertValue(trx, workspaceId, contactId, fieldId, value, now);
    after.set(fieldId, value);
    stored++;
  }
  const events: NewEvent[] = [];
  const values: Record<string, string> = {};
  for (const [fieldId, value] of after) {
    const name = fields.get(fieldId)?.name;
    if (name === undefined) continue;
    values[name] = value;
    const previous = before.get(fieldId) ?? null;
    if (previous !== value) events.push(customFieldValueEvent(contactId, name, previous, value));
  }
  return { stored, rejected, events, values };
}

export const processLead: EventProcessor = async (deps, stored, helpers) => {
  const event = stored.event as LeadEvent;
  const workspaceId = stored.workspaceId;
  // Already acted on (this job ran before and committed): answer what it did.
  if (stored.processedAt !== null) return (await channelEventOutcome(deps.db, workspaceId, stored.id)) ?? 'processed';

  let automation = event.formId === null ? null : await findActingLeadAd(deps.db, workspaceId, event.pageId, event.formId);
  if (event.formId !== null && !automation) return 'no automation';
  // A webhook without its form id: the lead says which form it came from (then `*` or that form).
  const fetched = await fetchLead(deps, stored, event, helpers);
  if (typeof fetched === 'string') return fetched;
  const lead = fetched;
  const formId = event.formId ?? lead.formId;
  if (!automation) automation = await findActingLeadAd(deps.db, workspaceId, event.pageId, formId);
  if (!automation) return 'no automation';
  const who = leadPerson(lead);

  for (let attempt = 1; ; attempt++) {
    try {
      return await inTransaction(deps.db, async (trx) => {
        // Read again in the transaction: the automation may have been deleted, switched off or changed while the lead was fetched.
        const acting = await findActingLeadAd(trx, workspaceId, event.pageId, formId);
        if (!acting) return finish(trx, 'no automation');
        const linked = await upsertLeadContact(trx, stored.inbox, who);
        if (linked === 'macLimitReached') return finish(trx, 'macLimitReached');
        const contactId = Number(linked.contact.id);
        for (const r of who.rejected) {
          await writeErrorLog(trx, workspaceId, { contactId, action: 'leadAd', detail: `Lead ${lead.id}: the answer to question "${r.question}" (${JSON.stringify(r.value)}) ${r.reason}; the contact was not given it`, httpCode: '422' });
        }
        const fields = await storeMappedAnswers(trx, workspaceId, acting, lead, contactId, linked.created);
        const tagged = await addContactTags(trx, workspaceId, contactId, acting.tagIds);
        const subscribed = await subscribeContact(trx, workspaceId, contactId, acting.sequenceIds);
        // One insert for everything the lead changed: a new contact first (with its mapped values), then the rest.
        await recordEvents(trx, workspaceId, [
          ...(linked.created ? [newContactEvent(linked.contact, fields.values)] : linked.events),
          ...fields.events,
          ...tagged.map((tag) => tagEvent('tagApplied', contactId, tag)),
          ...subscribed.map((s) => sequenceEvent('subscribedToSequence', contactId, s)),
        ]);
        await startSubscriptions(trx, deps.queue, workspaceId, subscribed.map((s) => s.subscriptionId));
        const sends = acting.reply.type !== 'none';
        if (sends) {
          const payload: LeadReplyPayload = { workspaceId, eventId: stored.id, automationId: acting.key, contactId, conversationId: linked.conversationId };
          await deps.queue.enqueue(trx, { task: LEAD_REPLY_TASK, payload: { ...payload }, key: leadReplyKey(stored.id) });
        }
        const outcome =
          `automation ${acting.id}: contact ${contactId} ${linked.created ? 'created' : 'updated'}, ${fields.stored} field(s) stored` +
          (fields.rejected > 0 ? `, ${fields.rejected} rejected` : '') +
          `, ${acting.tagIds.length} tag(s), ${acting.sequenceIds.length} sequence(s)` +
          (sends ? '; reply queued' : '; no reply');
        return finish(trx, outcome);
      });
    } catch (err) {
      // Another lead of the same person created the contact first: run again, finding it.
      if (err instanceof DuplicateContactError && attempt < MAX_TX_TRIES) continue;
      throw err;
    }
  }

  async function finish(trx: Executor, outcome: string): Promise<string> {
    await markChannelEventProcessed(trx, workspaceId, stored.id, outcome);
    return outcome;
  }
};

/**
 * Sends the reply of a processed lead: the automation's reply (text with placeholders filled from
 * the contact as it is now, or a flow or AI-agent hand-off) as a message to the lead, recorded on
 * the conversation. An automation deleted or switched off since sends nothing. A failed send is an
 * error log; a retryable one is tried again while tries are left, the last failure (or a final
 * one) stores the message as failed. The event's outcome says what happened, and a rerun of a job
 * that already recorded its send does nothing.
 */
export async function sendLeadReply(deps: EngineDeps, payload: LeadReplyPayload, helpers: JobHelpers): Promise<void> {
  const { workspaceId, eventId } = payload;
  const stored = await findChannelEvent(deps.db, workspaceId, eventId);
  if (!stored || stored.event.kind !== 'lead') return;
  const before = (await channelEventOutcome(deps.db, workspaceId, eventId)) ?? '';
  if (REPLY_DONE.test(before)) return;
  const base = before.replace(/; reply queued$/, '');
  const mark = (db: Executor, what: string) => markChannelEventProcessed(db, workspaceId, eventId, `${base}; ${what}`);

  const leadId = stored.event.leadId;
  const automation = await findLeadAdAutomation(deps.db, workspaceId, payload.automationId);
  if (!automation || !automation.isActive) return mark(deps.db, `reply skipped: the automation was ${automation ? 'switched off' : 'deleted'}`);
  const contact = await findContactById(deps.db, workspaceId, payload.contactId);
  if (!contact) return mark(deps.db, 'reply skipped: the contact was deleted');
  // As on comments: a blocked contact is never answered.
  if (contact.blockedAt !== null) return mark(deps.db, 'reply skipped: the contact is blocked');
  const who = await placeholderContext(deps.db, workspaceId, { id: payload.contactId, firstName: contact.firstName, lastName: contact.lastName });
  const content = replyContent(automation.reply, who, leadReplySeed(automation.id, leadId));
  if (!content) return mark(deps.db, 'reply skipped: nothing to send');
  if (await threadHeldByOther(deps.db, workspaceId, payload.contactId, stored.inbox.id)) return mark(deps.db, "reply skipped: threadNotOwned (another app holds the contact's thread)");
  if (content.type === 'flow') {
    const flow = await storedFlow(deps.db, workspaceId, content.flowId);
    // A flow of the workspace runs here, its messages to the lead; another id is a hand-off, as before.
    if (flow) return sendLeadFlow(deps, { ...payload, leadId, inbox: stored.inbox, contact }, flow, (db, what) => mark(db, what));
  }

  // The same key for every try: the sandbox records a retried send once.
  const origin = { contactId: payload.contactId, automation: { kind: 'leadAd' as const, id: payload.automationId }, idempotencyKey: leadReplyKey(eventId) };
  let externalId: string | null = null;
  let failure: string | null = null;
  try {
    externalId = (await deps.adapter.sendMessage({ workspaceId, inbox: stored.inbox, recipientId: leadRecipient(leadId), content, ...origin })).externalId;
  } catch (err) {
    if (!isChannelError(err)) throw err;
    await logChannelError(deps.db, workspaceId, stored.inbox.channel, err, payload.contactId);
    if (err.retryable && helpers.job.attempt < helpers.job.maxAttempts) throw err;
    failure = `${err.reason}: ${err.providerMessage}`;
  }
  await inTransaction(deps.db, async (trx) => {
    const messageId = await storeMessage(trx, workspaceId, {
      conversationId: payload.conversationId,
      contactId: payload.contactId,
      inboxId: stored.inbox.id,
      direction: 'outgoing',
      externalId,
      text: content.type === 'text' ? content.text : null,
      status: failure === null ? 'sent' : 'failed',
      error: failure,
      automation: origin.automation,
    });
    if (failure === null) {
      const now = new Date().toISOString();
      await noteOutgoingMessage(trx, workspaceId, payload.conversationId, now);
      await touchContactActivity(trx, workspaceId, payload.contactId, now);
    }
    await mark(trx, failure === null ? `replied (message ${messageId})` : `reply failed (message ${messageId}): ${failure}`);
  });
}

const storedFlow = async (db: Executor, workspaceId: number, flowId: string) => {
  const key = idNumber(flowId);
  return key === null ? null : findFlowById(db, workspaceId, key);
};

/**
 * A lead reply of `type: flow` naming a flow of the workspace: the flow runs to the lead (its
 * messages to the lead's recipient id, its actions on the contact), with the reply's key, so a
 * retried job sends each message once where the adapter honours keys. The form submission is the
 * person's last message: the 24-hour window is open from it.
 */
async function sendLeadFlow(
  deps: EngineDeps,
  lead: LeadReplyPayload & { leadId: string; inbox: AdapterInbox; contact: { firstName: string | null; lastName: string | null } },
  flow: Flow,
  mark: (db: Executor, what: string) => Promise<unknown>,
): Promise<void> {
  const now = deps.clock.now();
  const destination = { conversationId: lead.conversationId, inbox: lead.inbox, recipientId: leadRecipient(lead.leadId), contactInboxId: null, contactRepliedAt: now.toISOString() };
  const contact = { id: lead.contactId, firstName: lead.contact.firstName, lastName: lead.contact.lastName };
  const result = await runFlow({ db: deps.db, adapter: deps.adapter, queue: deps.queue, images: deps.images }, flow, { workspaceId: lead.workspaceId, contact, destination }, leadReplyKey(lead.eventId), now, {
    kind: 'leadAd',
    id: lead.automationId,
  });
  await mark(deps.db, result.status === 'sent' ? `replied (flow ${flow.id}: ${result.messages} message(s))` : `reply failed (flow ${flow.id}): ${result.reason}`);
}
