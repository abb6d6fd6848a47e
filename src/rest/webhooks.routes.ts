import type { AppDeps } from '../http/app-deps.js';
import type { Channel } from '../domain/comment-automations/comment-automation.schema.js';
import { webhookBodySchema } from '../domain/events/channel-event.schema.js';
import { ingestWebhook } from '../domain/events/channel-event.service.js';
import { sameToken, verifyHubSignature } from '../domain/events/webhook-signature.js';
import { AppError } from '../errors/catalogue.js';
import { toIssues, invalidRequestData } from '../errors/validation.js';
import { parseJson } from '../http/body.js';
import { jsonAnswer, type Answer, type Incoming } from '../http/exchange.js';
import type { RequestState } from '../http/request-state.js';
import { clientIp } from '../http/client-ip.js';
import { assertBudgetLeft, type Limiter } from '../http/rate-limit.js';
import { RateLimiterRes } from 'rate-limiter-flexible';

export type WebhookRoutes = Record<string, (request: Incoming, state: RequestState) => Promise<Answer>>;

/** The methods a webhook path answers (405 names them otherwise). */
export const webhookMethods = ['GET', 'POST'];

/**
 * The networks' webhooks, one path per channel, outside /v1 and without a token: a POST is
 * authenticated by its X-Hub-Signature-256 (the app secret's HMAC of the raw body), checked before
 * the body is parsed; a bad or missing one is 401 and stores nothing, and spends a point of the
 * sender's budget of failures (WEBHOOK_BAD_SIGNATURE_*): past it, 429 before the body is read.
 * Bodies may be as large as WEBHOOK_BODY_LIMIT_BYTES (a network batches changes). A verified body's events are
 * stored with their jobs before the 200 (src/domain/events/channel-event.service.ts). GET answers
 * the subscription handshake with the challenge when the verify token matches.
 */
export function webhookRoutes(deps: AppDeps): WebhookRoutes {
  const { config } = deps;
  const route = (channel: Channel) => async (request: Incoming, state: RequestState): Promise<Answer> => {
    if (request.method === 'GET') return handshake(new URLSearchParams(request.search));
    const secret = config.WEBHOOK_APP_SECRET;
    if (!secret) throw new AppError('serviceUnavailable', { message: 'Webhooks are not configured on this server (WEBHOOK_APP_SECRET)' });
    // An address that keeps failing the signature is refused before its body is read or hashed.
    const ip = clientIp(request, config.TRUST_PROXY);
    await assertBudgetLeft(deps.limiters.badWebhookSignature, ip, 'webhookSignature');
    const bytes = (await request.body(config.WEBHOOK_BODY_LIMIT_BYTES)) ?? new Uint8Array();
    if (!verifyHubSignature(secret, bytes, request.header('x-hub-signature-256'))) {
      await spendFailure(deps.limiters.badWebhookSignature, ip);
      throw new AppError('UNAUTHORIZED', { data: { reason: 'X-Hub-Signature-256 is missing or does not match the body (sha256=<hex HMAC-SHA256 of the raw body with the app secret>)' } });
    }
    const parsed = webhookBodySchema.safeParse(parseJson(Buffer.from(bytes).toString('utf8'), config.JSON_MAX_DEPTH));
    if (!parsed.success) throw invalidRequestData(toIssues(parsed.error));
    return jsonAnswer(200, await ingestWebhook({ db: state.db, queue: deps.queue, logger: state.logger }, channel, parsed.data));
  };
  const handshake = (q: URLSearchParams): Answer => {
    const expected = config.WEBHOOK_VERIFY_TOKEN;
    if (q.get('hub.mode') !== 'subscribe' || !expected || !sameToken(q.get('hub.verify_token') ?? '', expected)) {
      throw new AppError('FORBIDDEN', { data: { reason: 'hub.mode must be subscribe and hub.verify_token must match WEBHOOK_VERIFY_TOKEN' } });
    }
    return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: q.get('hub.challenge') ?? '' };
  };
  return { '/webhooks/photo': route('photo'), '/webhooks/net': route('net') };
}

/** A failed signature spends a point of the address's budget; the request is 401 all the same, the next ones 429. */
async function spendFailure(limiter: Limiter, ip: string): Promise<void> {
  try {
    await limiter.consume(ip);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
  }
}
