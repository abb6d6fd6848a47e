import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/**
 * A GraphQL subscription over a real socket, read as the SSE client of graphql-sse's "distinct
 * connections" mode reads it: `POST /graphql` with `Accept: text/event-stream`, then `next`
 * messages (each a GraphQL result) until `complete`. Everything waits for a condition with a
 * deadline, never for a fixed time.
 */
export interface SseMessage {
  event: string;
  data: string;
}

export interface Subscription {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body, for answers that are not a stream (401, 400). */
  text: () => Promise<string>;
  /** The next `next` or `complete` message (pings skipped); fails after `timeoutMs`. */
  message: (timeoutMs?: number) => Promise<SseMessage>;
  /** The next `next` message's result, parsed; fails on `complete` or after the deadline. */
  result: <T = any>(timeoutMs?: number) => Promise<T>;
  /** Results until `complete`; fails after the deadline. */
  rest: <T = any>(timeoutMs?: number) => Promise<T[]>;
  /** Messages received and not read yet (for asserting that nothing came). */
  pending: () => SseMessage[];
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
  /** The client leaves. */
  close: () => void;
}

export interface SubscribeOptions {
  token?: string;
  variables?: Record<string, unknown>;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

export const EVENTS = `subscription Events($types: [EventType!], $after: ID) {
  events(types: $types, after: $after) { id type occurredAt data contact { rawId firstName tags { name } } }
}`;

export function subscribe(base: string, query: string, options: SubscribeOptions = {}): Promise<Subscription> {
  const body = JSON.stringify({ query, variables: options.variables ?? {} });
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/graphql`, { method: 'POST', headers, agent: false }, (res) => {
      const queue: SseMessage[] = [];
      let buffer = '';
      let raw = '';
      let waiter: (() => void) | null = null;
      let ended = false;
      const closed = new Promise<void>((ok) => {
        res.once('close', () => {
          ended = true;
          waiter?.();
          ok();
        });
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length === 0 && event === 'message') continue; // a ping
          queue.push({ event, data: data.join('\n') });
        }
        waiter?.();
      });
      res.on('error', () => {});

      const message = async (timeoutMs = 10_000): Promise<SseMessage> => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const next = queue.shift();
          if (next) return next;
          if (ended) throw new Error(`the stream closed without another message (body so far: ${JSON.stringify(raw)})`);
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no message within ${timeoutMs} ms (body so far: ${JSON.stringify(raw)})`);
          await new Promise<void>((ok) => {
            const timer = setTimeout(ok, left);
            waiter = () => {
              clearTimeout(timer);
              waiter = null;
              ok();
            };
          });
        }
      };
      const result = async <T>(timeoutMs?: number): Promise<T> => {
        const m = await message(timeoutMs);
        if (m.event !== 'next') throw new Error(`expected a next message, got ${m.event} ${m.data}`);
        return JSON.parse(m.data) as T;
      };
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: async () => {
          await closed;
          return raw;
        },
        message,
        result,
        rest: async <T>(timeoutMs = 10_000) => {
          const results: T[] = [];
          for (;;) {
            const m = await message(timeoutMs);
            if (m.event === 'complete') return results;
            results.push(JSON.parse(m.data) as T);
          }
        },
        pending: () => [...queue],
        closed,
        close: () => {
          req.destroy();
          res.destroy();
        },
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
