import { z } from 'zod';
import { digitId, isoDateTime } from '../shared/schemas.js';

/**
 * Thread control (the networks' handover protocol): which app holds a contact's thread with an
 * account, per contact inbox. We run as the primary receiver: a thread is ours unless a network
 * said (or one of our calls made it) another app's. No row means ours.
 *
 * - `owned`: our app holds the thread; `standby`: another app does (our senders refuse to send);
 * - `idle`: nobody has acted for 24 hours: computed on read, 24 hours after the later of the
 *   person's last message and the last transition, never stored. The stored state says who held
 *   the thread when it went idle (`ownerRole`, `ownerAppId`); an idle thread is not held by another
 *   app for our senders.
 */
export const THREAD_IDLE_HOURS = 24;

export const threadStateValueSchema = z.enum(['owned', 'standby', 'idle']).meta({ id: 'ThreadStateValue' });
export type ThreadStateValue = z.infer<typeof threadStateValueSchema>;
/** What is stored: idle is computed. */
export type StoredThreadState = Exclude<ThreadStateValue, 'idle'>;

export const threadOwnerRoleSchema = z
  .enum(['primary', 'secondary'])
  .meta({ id: 'ThreadOwnerRole', description: 'primary: our app (the primary receiver) holds the thread; secondary: another app does' });
export type ThreadOwnerRole = z.infer<typeof threadOwnerRoleSchema>;

/** What moved the thread last: a network's handover event, a message that proved who holds it, or one of our calls. */
export const threadEventSchema = z
  .enum(['passThreadControl', 'takeThreadControl', 'requestThreadControl', 'standbyMessage', 'message', 'take', 'pass', 'release', 'sync'])
  .meta({ id: 'ThreadEvent' });
export type ThreadEvent = z.infer<typeof threadEventSchema>;

export const threadEventSourceSchema = z.enum(['network', 'api']).meta({ id: 'ThreadEventSource', description: 'network: a webhook (or dev) event; api: one of our calls' });
export type ThreadEventSource = z.infer<typeof threadEventSourceSchema>;

export const threadStateSchema = z
  .object({
    contactInboxId: digitId,
    state: threadStateValueSchema,
    ownerRole: threadOwnerRoleSchema,
    ownerAppId: z.string().nullable().meta({ description: 'The app holding the thread; null when another app holds it and the network did not say which' }),
    transitionedAt: isoDateTime.nullable().meta({ description: "When the thread last changed hands, or was first recorded (a network event's own time); null when it never was" }),
    lastUserMessageAt: isoDateTime.nullable().meta({ description: "The person's last message we heard of (ours or another app's, through standby) since the thread was first recorded" }),
    expiresAt: isoDateTime.nullable().meta({ description: 'When the thread goes idle: 24 hours after the later of lastUserMessageAt and transitionedAt' }),
    idleSince: isoDateTime.nullable().meta({ description: 'Set (to expiresAt) when the thread is idle' }),
    lastEvent: threadEventSchema.nullable(),
    lastEventSource: threadEventSourceSchema.nullable(),
    updatedAt: isoDateTime.nullable().meta({ description: 'When the record last changed; null when there is none (the thread was always ours)' }),
  })
  .meta({ id: 'ThreadState', description: "Who holds a contact's thread in an inbox (thread control)" });
export type ThreadState = z.infer<typeof threadStateSchema>;

export const threadControlActionSchema = z
  .enum(['take', 'release', 'pass', 'sync'])
  .meta({ id: 'ThreadControlAction', description: 'take: our app takes the thread; release / pass: we hand it to another app; sync: ask the network who holds it' });
export type ThreadControlAction = z.infer<typeof threadControlActionSchema>;

/** targetAppId goes with pass only, metadata with a call to the network (not sync); GraphQL's arguments are checked alike. */
export function threadControlRules(b: { action: string; targetAppId?: unknown; metadata?: unknown }, ctx: z.RefinementCtx): void {
  if (b.targetAppId != null && b.action !== 'pass') ctx.addIssue({ code: 'custom', path: ['targetAppId'], message: `is for pass only, not ${b.action}` });
  if (b.metadata != null && b.action === 'sync') ctx.addIssue({ code: 'custom', path: ['metadata'], message: 'is not taken by sync' });
}

const contactInboxId = digitId.meta({ description: "The contact inbox (the conversation's contact in its inbox) whose thread it is" });

export const threadControlInput = z
  .strictObject({
    contactInboxId,
    action: threadControlActionSchema,
    targetAppId: z.string().trim().min(1).max(100).optional().meta({ description: 'pass only: the app to hand the thread to (default: HANDOVER_TARGET_APP_ID)' }),
    metadata: z.string().max(1000).optional().meta({ description: 'take, pass, release: passed on to the app that receives the thread' }),
  })
  .superRefine((b, ctx) => threadControlRules(b, ctx))
  .meta({ id: 'ThreadControlInput' });
export type ThreadControlInput = z.infer<typeof threadControlInput>;

export const syncThreadOwnerInput = z.strictObject({ contactInboxId }).meta({ id: 'SyncThreadOwnerInput' });
export type SyncThreadOwnerInput = z.infer<typeof syncThreadOwnerInput>;

export const threadControlResultSchema = z
  .object({
    status: z
      .enum(['applied', 'notEscalation'])
      .meta({
        id: 'ThreadControlStatus',
        description: 'applied: the thread changed hands (take, pass, release: the network was called; sync: it named another owner than recorded); notEscalation: it already was so (take, pass, release call nothing; nothing is written)',
      }),
    snapshot: threadStateSchema,
  })
  .meta({ id: 'ThreadControlResult' });
export type ThreadControlResult = z.infer<typeof threadControlResultSchema>;
