import type { ActionResult, AdapterCall, AdapterInbox, AdapterPost, ChannelAdapter, Lead, OutgoingContent, Profile, ThreadOwner } from '../domain/channels/channel-adapter.js';
import { ChannelError, type ChannelErrorReason } from '../domain/channels/channel-error.js';
import { DEFAULT_APP_ID, DEFAULT_HANDOVER_APP_ID } from './sandbox.adapter.js';

export interface GraphApiOptions {
  /** The Graph API's base URL with its version, e.g. `https://graph.example.com/v21.0` (no trailing slash needed). */
  baseUrl: string;
  /**
   * The access token for an inbox's calls. Today one token from configuration for every inbox
   * (GRAPH_API_ACCESS_TOKEN); per-inbox page or account tokens later come from the inbox's stored
   * credentials through this same function, without changing any call.
   */
  accessToken: (inbox: AdapterInbox) => string | Promise<string>;
  /** Each request is aborted after this long (ChannelError unavailable, retryable). */
  timeoutMs: number;
  /** Our app's id on the networks (CHANNEL_APP_ID) and the app handovers go to (HANDOVER_TARGET_APP_ID); their defaults when left out. */
  appId?: string;
  handoverAppId?: string;
}

const DEFAULT_POSTS = 25;

/** Graph API error codes (error.code) by what a caller does about them. */
const rateLimitCodes = new Set([4, 17, 32, 613]);
const tokenCodes = new Set([102, 190]);
const windowSubcodes = new Set([2018278, 2534022]);
/** 100 with subcode 33: "object does not exist, cannot be loaded due to missing permissions, or does not support this operation". */
const notFoundSubcodes = new Set([33]);

interface GraphErrorBody {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_subcode?: unknown;
  fbtrace_id?: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * What a Graph API error means for the caller:
 * - 4, 17, 32, 613 and the business-use-case limits 80001-80014: rateLimited (retryable);
 * - 190 and 102 (invalid or expired token or session): tokenExpired;
 * - 10 (or any code) with subcode 2018278 or 2534022 (outside the messaging window): windowClosed;
 * - 100 with subcode 33, and HTTP 404: notFound; any other 100 (bad parameter): invalid;
 * - 1 and 2 (unknown or service error) and any HTTP 5xx: unavailable (retryable);
 * - anything else (permissions 10, 200-299, policy blocks): invalid.
 */
export function reasonOf(status: number, code: number | undefined, subcode: number | undefined): ChannelErrorReason {
  if (code !== undefined && (rateLimitCodes.has(code) || (code >= 80001 && code <= 80014))) return 'rateLimited';
  if (code !== undefined && tokenCodes.has(code)) return 'tokenExpired';
  if (subcode !== undefined && windowSubcodes.has(subcode)) return 'windowClosed';
  if ((code === 100 && subcode !== undefined && notFoundSubcodes.has(subcode)) || status === 404) return 'notFound';
  if (code === 1 || code === 2 || status >= 500) return 'unavailable';
  if (code === undefined && status === 429) return 'rateLimited';
  if (code === undefined && status === 401) return 'tokenExpired';
  return 'invalid';
}

/**
 * Seconds to wait, when the network says: `Retry-After` (seconds or an HTTP date), else the largest
 * `estimated_time_to_regain_access` (minutes) of an `X-Business-Use-Case-Usage` header.
 */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim());
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const usage = headers.get('x-business-use-case-usage');
  if (usage !== null) {
    try {
      const parsed = JSON.parse(usage) as Record<string, { estimated_time_to_regain_access?: unknown }[]>;
      const minutes = Object.values(parsed)
        .flat()
        .map((u) => num(u?.estimated_time_to_regain_access) ?? 0);
      const most = Math.max(0, ...minutes);
      if (most > 0) return most * 60;
    } catch {
      // A header we cannot read says nothing.
    }
  }
  return undefined;
}

/** A direct message's `message` object: a text, an image attachment, or a text with quick replies. */
const messageOf = (content: OutgoingContent): Record<string, unknown> => {
  if (content.type === 'image') return { attachment: { type: 'image', payload: { url: content.url, is_reusable: true } } };
  if (content.type === 'quickReplies') return { text: content.text, quick_replies: content.replies.map((r) => ({ content_type: 'text', title: r.title, payload: r.payload })) };
  return { text: textOf(content) };
};

const textOf = (content: OutgoingContent): string => {
  if (content.type === 'text') return content.text;
  if (content.type === 'quickReplies') return content.text;
  if (content.type === 'image') return content.url;
  // The Graph API has no flows or AI agents: those run on the platform, which sends their messages.
  throw new ChannelError({
    reason: 'invalid',
    httpCode: null,
    providerMessage: `The Graph API adapter sends messages only; a ${content.type} hand-off (${content.type === 'flow' ? content.flowId : content.agentId}) runs on the platform`,
  });
};

/** A Graph time (`2026-11-01T09:00:00+0000`) as ISO 8601 UTC with milliseconds. */
const isoOf = (value: unknown): string => {
  const s = str(value);
  const t = s === null ? NaN : Date.parse(s.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(t) ? (s ?? '') : new Date(t).toISOString();
};

const photoKind = (productType: unknown): AdapterPost['kind'] => (productType === 'REELS' ? 'reels' : productType === 'AD' ? 'ads' : 'published');

/**
 * The channel adapter that calls the networks' Graph API over HTTP (Node's fetch), with a
 * `Authorization: Bearer` token and JSON bodies:
 *
 * | call | photo | net |
 * |---|---|---|
 * | private reply | POST /{account}/messages `{recipient: {comment_id}, message: {text}}` | same, the page's id |
 * | public reply | POST /{comment}/replies `{message}` | POST /{comment}/comments `{message}` |
 * | message | POST /{account}/messages `{recipient: {id}, messaging_type: "RESPONSE", message: {text}}` | same |
 * | like | POST /{comment}/likes | same |
 * | hide / unhide | POST /{comment} `{hide: true/false}` | POST /{comment} `{is_hidden: true/false}` |
 * | lead | GET /{lead}?fields=id,created_time,ad_id,form_id,field_data | same |
 * | profile | GET /{user}?fields=name,username,profile_pic | GET /{user}?fields=first_name,last_name,name,profile_pic |
 * | posts | GET /{account}/media?fields=...&limit= | GET /{page}/posts?fields=...&limit= |
 * | take / pass / release thread | POST /{account}/take_thread_control, pass_thread_control, release_thread_control `{recipient: {id}, target_app_id (pass), metadata?}` | same, the page's id |
 * | thread owner | GET /{account}/thread_owner?recipient={id} `{data: [{thread_owner: {app_id}}]}` | same |
 *
 * Every failure is a ChannelError (see `reasonOf` for the error codes): a Graph error body, a
 * non-JSON answer, a timeout or a refused connection.
 */
export function graphApiAdapter(options: GraphApiOptions): ChannelAdapter {
  const base = options.baseUrl.replace(/\/+$/, '');

  async function request<T>(call: AdapterCall, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
    const token = await options.accessToken(call.inbox);
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new ChannelError({
        reason: 'unavailable',
        httpCode: null,
        providerMessage: timedOut ? `No answer within ${options.timeoutMs} ms (${method} ${path.split('?')[0]})` : `Request failed: ${cause}`,
      });
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new ChannelError({ reason: 'unavailable', httpCode: res.status, providerMessage: timedOut ? `The answer did not arrive within ${options.timeoutMs} ms` : 'The answer was cut off' });
    }
    let parsed: unknown;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = parsed && typeof parsed === 'object' && 'error' in parsed ? ((parsed as { error: GraphErrorBody }).error ?? {}) : null;
    if (!res.ok || error) {
      const code = num(error?.code);
      const subcode = num(error?.error_subcode);
      const retryAfterSeconds = retryAfterOf(res.headers);
      throw new ChannelError({
        reason: reasonOf(res.status, code, subcode),
        httpCode: res.status,
        providerMessage: str(error?.message) ?? (parsed === undefined ? `HTTP ${res.status}: not a JSON answer (${text.slice(0, 200)})` : `HTTP ${res.status}`),
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        ...(code !== undefined ? { providerCode: code } : {}),
        ...(subcode !== undefined ? { providerSubcode: subcode } : {}),
        ...(str(error?.fbtrace_id) !== null ? { traceId: str(error?.fbtrace_id)! } : {}),
      });
    }
    if (parsed === undefined || parsed === null || typeof parsed !== 'object') {
      throw new ChannelError({ reason: 'unavailable', httpCode: res.status, providerMessage: `HTTP ${res.status}: not a JSON object (${text.slice(0, 200)})` });
    }
    return parsed as T;
  }

  const seg = encodeURIComponent;
  const messageId = (r: { message_id?: unknown }): ActionResult => ({ externalId: str(r.message_id) });
  const createdId = (r: { id?: unknown }): ActionResult => ({ externalId: str(r.id) });
  const nothing = (): ActionResult => ({ externalId: null });
  const visibility = (call: AdapterCall & { commentId: string }, hidden: boolean) =>
    request(call, 'POST', `/${seg(call.commentId)}`, call.inbox.channel === 'photo' ? { hide: hidden } : { is_hidden: hidden }).then(nothing);

  const threadPath = { take: 'take_thread_control', pass: 'pass_thread_control', release: 'release_thread_control' } as const;

  return {
    name: 'http',
    appId: options.appId ?? DEFAULT_APP_ID,
    handoverAppId: options.handoverAppId ?? DEFAULT_HANDOVER_APP_ID,
    sendPrivateReply: async (call) =>
      messageId(await request(call, 'POST', `/${seg(call.inbox.sourceId)}/messages`, { recipient: { comment_id: call.commentId }, message: { text: textOf(call.content) } })),
    sendPublicReply: async (call) =>
      createdId(await request(call, 'POST', `/${seg(call.commentId)}/${call.inbox.channel === 'photo' ? 'replies' : 'comments'}`, { message: textOf(call.content) })),
    sendMessage: async (call) =>
      messageId(
        await request(call, 'POST', `/${seg(call.inbox.sourceId)}/messages`, { recipient: { id: call.recipientId }, messaging_type: 'RESPONSE', message: messageOf(call.content) }),
      ),
    likeComment: (call) => request(call, 'POST', `/${seg(call.commentId)}/likes`).then(nothing),
    hideComment: (call) => visibility(call, true),
    unhideComment: (call) => visibility(call, false),
    async fetchLead(call): Promise<Lead> {
      const r = await request<{ id?: unknown; created_time?: unknown; ad_id?: unknown; form_id?: unknown; field_data?: unknown }>(
        call,
        'GET',
        `/${seg(call.leadId)}?fields=id,created_time,ad_id,form_id,field_data`,
      );
      const fields = Array.isArray(r.field_data) ? (r.field_data as { name?: unknown; values?: unknown }[]) : [];
      return {
        id: str(r.id) ?? call.leadId,
        createdAt: isoOf(r.created_time),
        formId: str(r.form_id),
        adId: str(r.ad_id),
        fields: fields.map((f) => ({ name: str(f?.name) ?? '', values: Array.isArray(f?.values) ? f.values.map(String) : [] })),
      };
    },
    async fetchProfile(call): Promise<Profile> {
      const fields = call.inbox.channel === 'photo' ? 'name,username,profile_pic' : 'first_name,last_name,name,profile_pic';
      const r = await request<Record<string, unknown>>(call, 'GET', `/${seg(call.userId)}?fields=${fields}`);
      return {
        id: str(r.id) ?? call.userId,
        firstName: str(r.first_name),
        lastName: str(r.last_name),
        name: str(r.name),
        username: str(r.username),
        avatarUrl: str(r.profile_pic),
      };
    },
    controlThread: (call) => {
      const { action, targetAppId, metadata } = call.request;
      const body: Record<string, unknown> = { recipient: { id: call.recipientId } };
      if (action === 'pass') body.target_app_id = targetAppId;
      if (metadata !== null) body.metadata = metadata;
      return request(call, 'POST', `/${seg(call.inbox.sourceId)}/${threadPath[action]}`, body).then(nothing);
    },
    async fetchThreadOwner(call): Promise<ThreadOwner> {
      const r = await request<{ data?: unknown }>(call, 'GET', `/${seg(call.inbox.sourceId)}/thread_owner?recipient=${seg(call.recipientId)}`);
      const first = Array.isArray(r.data) ? (r.data[0] as { thread_owner?: { app_id?: unknown } } | undefined) : undefined;
      const appId = first?.thread_owner?.app_id;
      return { appId: typeof appId === 'number' ? String(appId) : str(appId) };
    },
    async fetchPosts(call): Promise<AdapterPost[]> {
      const limit = call.limit ?? DEFAULT_POSTS;
      const photo = call.inbox.channel === 'photo';
      const path = photo
        ? `/${seg(call.inbox.sourceId)}/media?fields=id,caption,media_type,media_product_type,permalink,thumbnail_url,media_url,timestamp&limit=${limit}`
        : `/${seg(call.inbox.sourceId)}/posts?fields=id,message,created_time,permalink_url,full_picture&limit=${limit}`;
      const r = await request<{ data?: unknown }>(call, 'GET', path);
      const items = Array.isArray(r.data) ? (r.data as Record<string, unknown>[]) : [];
      return items.map((p) =>
        photo
          ? {
              id: str(p.id) ?? '',
              caption: str(p.caption),
              mediaType: str(p.media_type) ?? 'IMAGE',
              kind: photoKind(p.media_product_type),
              permalink: str(p.permalink),
              thumbnailUrl: str(p.thumbnail_url) ?? str(p.media_url),
              timestamp: isoOf(p.timestamp),
            }
          : {
              id: str(p.id) ?? '',
              caption: str(p.message),
              mediaType: str(p.full_picture) ? 'photo' : 'status',
              kind: 'published' as const,
              permalink: str(p.permalink_url),
              thumbnailUrl: str(p.full_picture),
              timestamp: isoOf(p.created_time),
            },
      );
    },
  };
}
