import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../observability/logger.js';

/** The channel every server process publishes its wake-ups on: `<process id> <workspace id>`. */
export const WAKEUPS_CHANNEL = 'messaging-api:workspace-events';

/** Wake-ups shared through Redis between the server processes (REDIS_URL). */
export interface SharedWakeups {
  /** Events of the workspace were recorded in this process: the others' streams read now. */
  publish(workspaceId: number): void;
  /** Resolves once the subscriber listens, or has failed to (at most 2 s). */
  settled: Promise<void>;
  close(): void;
}

/**
 * Tells the other server processes when this one records events, and hands their wake-ups to
 * `onRemote`, so a subscription is woken at once whichever process recorded the event. Only a
 * hint: the table is the truth and every process also polls it, so Redis down never loses an
 * event, it only makes other processes' streams wait for their next poll.
 *
 * Publishing goes through the rate limits' connection, which fails at once while Redis is down
 * (no offline queue); listening needs a connection of its own (a subscribed connection runs no
 * other command), which subscribes again by itself after a reconnection. A process ignores its
 * own publications (its streams were woken in process) and never passes a remote wake-up on.
 */
export function shareWakeups(publisher: Redis, logger: Logger, onRemote: (workspaceId: number) => void): SharedWakeups {
  const origin = randomUUID();
  const subscriber = publisher.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined, lazyConnect: false });
  let down = false;
  subscriber.on('error', (err) => {
    if (down) return;
    down = true;
    logger.warn({ err }, 'redis unreachable; event subscriptions learn of other processes\' events by polling until it is back');
  });
  subscriber.on('ready', () => {
    if (down) logger.info('redis reachable again; event subscriptions are woken across processes');
    down = false;
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== WAKEUPS_CHANNEL) return;
    const [from, workspace] = message.split(' ');
    const workspaceId = Number(workspace);
    if (from === origin || !Number.isSafeInteger(workspaceId) || workspaceId <= 0) return;
    onRemote(workspaceId);
  });
  const settled = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000);
    subscriber.subscribe(WAKEUPS_CHANNEL).then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
  return {
    publish(workspaceId) {
      publisher.publish(WAKEUPS_CHANNEL, `${origin} ${workspaceId}`).catch(() => {
        // Redis is down: the other processes find the events at their next poll.
      });
    },
    settled,
    close() {
      subscriber.disconnect();
    },
  };
}
