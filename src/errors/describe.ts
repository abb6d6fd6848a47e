import type { ErrorEnvelope } from './catalogue.js';
import type { Issue } from './validation.js';

/**
 * The one place that words an error for GraphQL's `message`, from its code and data: GraphiQL and
 * GraphQL clients show `message`, so it says what happened (`Contact not found`, `This token lacks
 * the "contacts" scope`). REST keeps the contract's default messages; GraphQL keeps the same code,
 * status, defined and data in `extensions`, so nothing is lost either way.
 *
 * - invalidRequestData: the first issue, its path in front unless the message already starts with
 *   the name it is about or the issue is GraphQL's own text about the document (which names the
 *   field or variable itself); `(and N more issues)` when there are several. Document limits read
 *   `Query depth 10 exceeds the limit of 8`.
 * - every other defined code: a sentence from its data; the code's default message when the data
 *   says nothing more. INTERNAL_SERVER_ERROR stays generic.
 * - undefined (HTTP-level) codes already word their message; payloadTooLarge adds its limit.
 */
export function describeError(error: Pick<ErrorEnvelope, 'code' | 'message' | 'data'>): string {
  const data = (error.data ?? {}) as Record<string, unknown>;
  const describe = describers[error.code];
  return describe?.(data) ?? error.message;
}

type Describer = (data: Record<string, unknown>) => string | undefined;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const forbiddenReasons: Record<string, Describer> = {
  readOnlyToken: () => 'This token is read-only: mutations need a full-permission token',
  missingScope: (d) => `This token lacks the "${String(d.scope)}" scope`,
  workspaceTokenRequired: () => 'Only a workspace API token may do this: user access tokens cannot',
};

const duplicateFields: Record<string, string> = { email: 'email', phoneNumber: 'phone number' };

/** Other rules of a contact's fields (contact.service.ts), by `data.reason`. */
const contactRules: Record<string, Describer> = {
  emailOrPhoneRequired: () => 'A contact keeps an email or a phone number: this change would leave it with neither',
  inboxChannelMismatch: () => 'channel must be the channel of the inbox inboxId names',
  identifierMismatch: (d) =>
    `The new contact's ${duplicateFields[String(d.field)] ?? String(d.field)} comes from the identifier: the input may not give it another value`,
  notAnEmailOrPhoneNumber: () => 'No contact matches, and the identifier is not an email or phone number to create one with',
  // A custom field's type or options change (custom-field.service.ts).
  // unknownReferences (catalogue.ts): ids in a definition that name nothing in the workspace.
  notFound: (d) => `${String(d.field)} names nothing in this workspace: ${Array.isArray(d.ids) ? d.ids.join(', ') : ''}`,
  // A lead-ad automation's forms (lead-ad.service.ts): one automation per page and form.
  alreadyClaimed: (d) => {
    const claims = Array.isArray(d.claims) ? (d.claims as { formId: string; automationId: string; automationName: string }[]) : [];
    const held = claims.map((c) => `${c.formId === '*' ? 'every form (*)' : `form ${c.formId}`} by automation ${c.automationId} ("${c.automationName}")`);
    return `Another lead-ad automation already answers forms of page ${String(d.pageId)}: ${held.join('; ')}`;
  },
  notAQuestion: (d) => `${String(d.field)}: no chosen form of the page asks ${Array.isArray(d.keys) ? d.keys.join(', ') : ''}`,
  valuesDoNotFit: (d) =>
    `${plural(typeof d.count === 'number' ? d.count : 0, 'stored value')} would not fit the new ${String(d.field)}: nothing was changed (data.values lists them)`,
};

const describers: Partial<Record<string, Describer>> = {
  invalidRequestData: (d) => describeIssues(Array.isArray(d.issues) ? (d.issues as Issue[]) : []),
  // A contact's email or phone number; otherwise a name of a tag or custom field.
  validation: (d) =>
    d.reason === 'alreadyExists' && typeof d.field === 'string'
      ? d.field in duplicateFields
        ? `Another contact already has this ${duplicateFields[d.field]}`
        : `This ${d.field} is already taken in the workspace`
      : typeof d.reason === 'string'
        ? contactRules[d.reason]?.(d)
        : undefined,
  notFound: (d) =>
    typeof d.resource === 'string'
      ? `${d.resource} not found${Array.isArray(d.ids) && d.ids.length ? `: ${d.ids.join(', ')}` : ''}`
      : typeof d.path === 'string' ? `No route for ${String(d.method)} ${d.path}` : undefined,
  FORBIDDEN: (d) => (typeof d.reason === 'string' ? forbiddenReasons[d.reason]?.(d) : undefined),
  trialExpired: (d) =>
    typeof d.trialEndedAt === 'string' ? `The workspace's trial ended at ${d.trialEndedAt}: writes are refused until the plan changes` : undefined,
  macLimitReached: (d) =>
    typeof d.limit === 'number' && typeof d.active === 'number'
      ? `The workspace has ${plural(d.active, 'monthly active contact')}, its limit is ${d.limit}: writes are refused`
      : undefined,
  tooManyRequests: (d) =>
    d.budget === 'subscriptions' && typeof d.limit === 'number'
      ? `Too many open event subscriptions for this workspace: at most ${d.limit} per server process; end one first`
      : typeof d.retryAfterSeconds === 'number'
        ? `Too many requests ${d.budget === 'ip' ? 'from this client' : 'for this workspace'}: retry in ${plural(d.retryAfterSeconds, 'second')}`
        : undefined,
  UNAUTHORIZED: () => 'Authentication required: send a token as "Authorization: Bearer <token>"',
  INVALID_CHATBOT_TOKEN: () => 'The token is malformed, unknown or revoked (or a user access token sent in ?token=)',
  payloadTooLarge: (d) => (typeof d.limitBytes === 'number' ? `The request body is larger than the limit of ${d.limitBytes} bytes` : undefined),
};

/** `MAX_ISSUES` summary issue that validation.ts appends when it caps a long list. */
const summary = /^(\d+) more issues not shown$/;

/** Paths of GraphQL's own document errors: their text names the field, variable or operation. */
const isDocumentPath = (path: readonly (string | number)[]) =>
  (path.length === 1 && (path[0] === 'query' || path[0] === 'operationName')) || (path.length === 2 && path[0] === 'variables');

const pathText = (path: readonly (string | number)[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

function describeIssues(issues: Issue[]): string | undefined {
  const first = issues[0];
  if (!first) return undefined;
  const last = issues.at(-1)!;
  const hidden = issues.length > 1 ? Number(summary.exec(last.message)?.[1] ?? 0) : 0;
  const more = issues.length - 1 - (hidden > 0 ? 1 : 0) + hidden;
  const text = describeIssue(first);
  return more > 0 ? `${text} (and ${plural(more, 'more issue')})` : text;
}

function describeIssue({ message, path }: Issue): string {
  if (isDocumentPath(path)) return rewordLimit(message);
  const named = path.findLast((p) => typeof p === 'string');
  if (path.length === 0 || (named !== undefined && message.startsWith(`${named} `))) return message;
  return `${pathText(path)}: ${message}`;
}

/** armor's and the cost limit's wording (`Query depth limit of 8 exceeded, found 10.`) as found vs limit. */
const limits: [RegExp, string][] = [
  [/^Query depth limit of (\d+) exceeded, found (\d+)\.?$/, 'Query depth'],
  [/^Aliases limit of (\d+) exceeded, found (\d+)\.?$/, 'Query alias count'],
  [/^Query cost limit of (\d+) exceeded, found (\d+)\.?$/, 'Query cost'],
  [/^Directives limit of (\d+) exceeded, found (\d+)\.?$/, 'Query directive count'],
  [/^Query field count limit of (\d+) exceeded, found (at least \d+|\d+)\.?$/, 'Query field count'],
  [/^Fragment spreads limit of (\d+) exceeded, found (\d+)\.?$/, 'Query fragment spread count'],
  [/^Directives per field limit of (\d+) exceeded, found (\d+)\.?$/, 'Query directive count on one field'],
];

function rewordLimit(message: string): string {
  for (const [pattern, what] of limits) {
    const m = pattern.exec(message);
    if (m) return `${what} ${m[2]} exceeds the limit of ${m[1]}`;
  }
  // armor stops counting tokens at the limit, so it cannot say how many there were.
  const tokens = /^Token limit of (\d+) exceeded\.?$/.exec(message);
  if (tokens) return `Query token count exceeds the limit of ${tokens[1]}`;
  return message;
}
