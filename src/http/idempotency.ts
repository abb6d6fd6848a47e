import { createHash } from 'node:crypto';
import type { Executor } from '../db/database.js';
import { claimKey, deleteExpiredKeys, findKey, releaseKey, storeAnswer } from '../domain/idempotency/idempotency.repository.js';
import { AppError } from '../errors/catalogue.js';
import { invalidRequestData } from '../errors/validation.js';
import { bodyBytes, isStream, type Answer, type Incoming } from './exchange.js';

/**
 * `Idempotency-Key` on POST and PATCH (REST routes and POST /graphql): the first answer to a key
 * is stored per workspace for 24 hours, and a retry with the same key and the same request (method,
 * path, query and body) gets that answer again, marked `Idempotent-Replayed: true`, without running
 * anything. The same key with another request is 422 `validation`. A retry that arrives while the
 * first is still running waits for its answer.
 *
 * Answers that say the request did not run (401, 403, 408, 409, 429, 499, and any 5xx) are not kept: the
 * key is released, so a retry runs. Nor are streamed answers (multipart/mixed), which are sent as
 * they are produced: a retry of one runs again. If the process dies between running a request and storing its
 * answer, the key stays "in progress" until it is STALE_MS old, and a retry then runs it again.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An unanswered claim this old belonged to a process that died: a retry takes it over. */
const STALE_MS = 60_000;
const POLL_MS = 25;
const keyPattern = /^[\x21-\x7e]{1,255}$/;
const notKept = new Set([401, 403, 408, 409, 429, 499]);
/** Headers of the first answer that a replay repeats. */
const replayedHeaders = ['content-type', 'location'];

export const idempotentMethods = new Set(['POST', 'PATCH']);

export interface Claim {
  workspaceId: number;
  key: string;
}

export type Begun = { replay: Answer } | { claim: Claim } | null;

const sha256 = (parts: (string | Uint8Array)[]) => {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(p).update('\n');
  return hash.digest('hex');
};

/** The request's identity: method, path, query (without the token) and body bytes. */
async function fingerprintOf(request: Incoming, bodyLimit: number): Promise<string> {
  const query = new URLSearchParams(request.search);
  query.delete('token');
  const body = await request.body(bodyLimit);
  return sha256([request.method, request.path, query.toString(), body ?? new Uint8Array()]);
}

const replay = (answer: { status: number; headers: Record<string, string>; body: string }): Answer => ({
  status: answer.status,
  headers: { ...answer.headers, 'idempotent-replayed': 'true' },
  body: answer.body === '' ? null : answer.body,
});

/**
 * For an authenticated POST/PATCH: nothing to do without the header; otherwise the stored answer
 * to replay, or this request's claim on the key (to be completed with `finish`). `waitMs` bounds
 * the wait for a first request still running (then 409).
 */
export async function begin(db: Executor, workspaceId: number, request: Incoming, options: { bodyLimit: number; waitMs: number }): Promise<Begun> {
  const key = request.header('idempotency-key');
  if (key === null || !idempotentMethods.has(request.method)) return null;
  if (!keyPattern.test(key)) {
    throw invalidRequestData([{ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters', path: ['headers', 'Idempotency-Key'] }]);
  }
  const fingerprint = await fingerprintOf(request, options.bodyLimit);
  const now = Date.now();
  await deleteExpiredKeys(db, workspaceId, new Date(now - IDEMPOTENCY_TTL_MS).toISOString());

  const giveUpAt = now + options.waitMs;
  for (;;) {
    if (await claimKey(db, workspaceId, key, fingerprint)) return { claim: { workspaceId, key } };
    const found = await findKey(db, workspaceId, key);
    if (!found) continue; // released or expired between the two statements: claim again
    if (found.fingerprint !== fingerprint) {
      throw new AppError('validation', { data: { reason: 'idempotencyKeyReused', header: 'Idempotency-Key' } });
    }
    if (found.answer) return { replay: replay(found.answer) };
    if (Date.now() - Date.parse(found.createdAt) > STALE_MS) {
      await releaseKey(db, workspaceId, key);
      continue;
    }
    if (Date.now() >= giveUpAt) {
      throw new AppError('conflict', { message: 'A request with this Idempotency-Key is still being processed; retry later' });
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Stores the first answer for the claimed key (or releases the key), and returns it to be sent.
 * A failure to store is reported to `onError` and the answer still goes out (its retry would run
 * again, as without a key).
 */
export async function finish(db: Executor, claim: Claim, answer: Answer, onError: (err: unknown) => void): Promise<Answer> {
  if (answer.status >= 500 || notKept.has(answer.status) || isStream(answer.body)) {
    await releaseKey(db, claim.workspaceId, claim.key).catch(onError);
    return answer;
  }
  const body = Buffer.from(bodyBytes(answer.body)).toString('utf8');
  const headers: Record<string, string> = {};
  for (const name of replayedHeaders) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  try {
    await storeAnswer(db, claim.workspaceId, claim.key, { status: answer.status, headers, body });
  } catch (err) {
    onError(err);
    await releaseKey(db, claim.workspaceId, claim.key).catch(() => {});
  }
  return answer;
}
