import { createHash } from 'node:crypto';
import type { Executor } from '../db/database.js';
import type { replySchema } from '../domain/comment-automations/comment-automation.schema.js';
import { contactValuesByFieldName } from '../domain/custom-fields/custom-field.repository.js';
import type { OutgoingContent } from '../domain/outbox/outbox.schema.js';
import type { z } from 'zod';

type Reply = z.infer<typeof replySchema>;

/**
 * A number in [0, 1) fixed by `seed`: the same comment or lead always draws the same value, so a
 * retried job chooses the same reply text and waits the same random delay.
 */
export function seededUnit(seed: string): number {
  const digest = createHash('sha256').update(seed).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** What placeholders are filled from: the contact's names and its custom field values by field name. */
export interface PlaceholderContext {
  firstName: string | null;
  lastName: string | null;
  /** Custom field values keyed by the field's name, lower-cased. */
  custom: Map<string, string>;
}

const placeholder = /\{\{\s*(first_name|full_name|custom\.([^}]+?))\s*\}\}/g;

/** `{{first_name}}`, `{{full_name}}` and `{{custom.<field name>}}` (name case-insensitive); unknown or empty -> "". */
export function fillPlaceholders(text: string, who: PlaceholderContext): string {
  return text.replace(placeholder, (_m, key: string, field: string | undefined) => {
    if (key === 'first_name') return who.firstName ?? '';
    if (key === 'full_name') return [who.firstName, who.lastName].filter(Boolean).join(' ');
    return who.custom.get(field!.trim().toLowerCase()) ?? '';
  });
}

/**
 * What a reply sends, or null when it sends nothing (`none`, or a text reply with no text): `text`
 * sends `value`, or one of `values` chosen by `seed` (automation and comment or lead ids), with its
 * placeholders filled; `flow` and `AIAgent` hand the conversation over by id.
 */
export function replyContent(reply: Reply, who: PlaceholderContext, seed: string): OutgoingContent | null {
  switch (reply.type) {
    case 'none':
      return null;
    case 'flow':
      return reply.value ? { type: 'flow', flowId: reply.value } : null;
    case 'AIAgent':
      return reply.value ? { type: 'AIAgent', agentId: reply.value } : null;
    case 'text': {
      // Blank alternatives are not choices: a reply with "Hi" and "" always sends "Hi".
      const given = (reply.values ?? []).map((v) => v.value).filter((v) => v.trim() !== '');
      const choices = given.length > 0 ? given : reply.value !== null && reply.value.trim() !== '' ? [reply.value] : [];
      if (choices.length === 0) return null;
      const chosen = choices[Math.floor(seededUnit(seed) * choices.length)]!;
      const text = fillPlaceholders(chosen, who).trim();
      return text ? { type: 'text', text } : null;
    }
  }
}

/** Whether any text of the reply names a custom field (`{{custom.<name>}}`). */
const namesCustomField = (reply: Reply): boolean => [reply.value ?? '', ...(reply.values ?? []).map((v) => v.value)].some((text) => /\{\{\s*custom\./.test(text));

/**
 * The placeholder context of a contact: its names and custom field values (one statement for the
 * values, left out when `reply` is given and names no custom field: most replies name none).
 */
export async function placeholderContext(db: Executor, workspaceId: number, contact: { id: number; firstName: string | null; lastName: string | null }, reply?: Reply): Promise<PlaceholderContext> {
  if (reply && (reply.type !== 'text' || !namesCustomField(reply))) return { firstName: contact.firstName, lastName: contact.lastName, custom: new Map() };
  const rows = await contactValuesByFieldName(db, workspaceId, contact.id);
  return { firstName: contact.firstName, lastName: contact.lastName, custom: new Map(rows.map((r) => [r.name.toLowerCase(), r.value ?? ''])) };
}
