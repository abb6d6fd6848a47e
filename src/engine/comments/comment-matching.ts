import type { StoredCommentAutomation } from '../../domain/comment-automations/comment-automation.repository.js';
import { MAX_REPLY_DELAY_DAYS } from '../../domain/comment-automations/comment-automation.schema.js';
import type { PostKind } from '../../domain/channel-posts/channel-post.schema.js';
import type { CommentEvent } from '../../domain/events/channel-event.schema.js';

/**
 * The pure rules of comment matching: no database, no clock of their own. The processor
 * (comment-engine.ts) feeds them the automation, the comment and what it looked up.
 */

/** Why an automation did not act on a comment, as GET .../events shows it. */
export type DeclineReason =
  | 'outsideSchedule'
  | 'commentReply'
  | 'excludedKeyword'
  | 'blockedContact'
  | 'macLimitReached'
  | 'alreadyRepliedOnPost'
  | 'answeredOnOtherPost'
  | 'notNewContact';

/* ------------------------------------------------------------------------------------------------ */
/* Schedule                                                                                         */

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The minute of the day (0..1439) of `at` in `timeZone` (IANA name; an unknown or null zone is UTC). */
export function minuteOfDay(at: Date, timeZone: string | null): number {
  const parts = clockOf(timeZone ?? 'UTC').formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0) % 24;
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

/** A formatter per zone (making one costs more than matching a comment): an unknown zone reads as UTC. */
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    const options = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
    try {
      clock = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    } catch {
      clock = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
    }
    if (clocks.size > 1000) clocks.clear();
    clocks.set(timeZone, clock);
  }
  return clock;
}

/**
 * Whether `at` falls in the window `start`..`end` (HH:mm, inclusive, to the minute) in the zone. A
 * window whose start is after its end runs overnight (22:00-06:00); a missing bound means always.
 */
export function inSchedule(start: string | null, end: string | null, at: Date, timeZone: string | null): boolean {
  if (start === null || end === null) return true;
  const t = minuteOfDay(at, timeZone);
  const s = minutesOf(start);
  const e = minutesOf(end);
  return s <= e ? t >= s && t <= e : t >= s || t <= e;
}

/* ------------------------------------------------------------------------------------------------ */
/* Posts                                                                                            */

/** A net post id after its page (`9001` of `102030405060708_9001`); the whole id when it has no `_`. */
const barePostId = (id: string): string => (id.includes('_') ? id.slice(id.indexOf('_') + 1) : id);

/** The same post: equal ids, or a `pageId_postId` id and its bare post id (either way round). */
export function samePost(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.includes('_') && !b.includes('_')) return barePostId(a) === b;
  if (b.includes('_') && !a.includes('_')) return barePostId(b) === a;
  return false;
}

/** The photo network's product type of a medium, as a post kind (a hint when the post is unknown). */
export function kindFromProductType(productType: string | null): PostKind | null {
  switch ((productType ?? '').toUpperCase()) {
    case 'FEED':
      return 'published';
    case 'REELS':
      return 'reels';
    case 'AD':
    case 'ADS':
      return 'ads';
    default:
      return null;
  }
}

/** Whether the selector takes the comment's post; `kind` is the post's kind when known (null: unknown). */
export function postSelected(selector: StoredCommentAutomation['post'], postId: string | null, kind: PostKind | null): boolean {
  switch (selector.type) {
    case 'all':
      return true;
    case 'postIds':
      return postId !== null && selector.value.some((id) => samePost(id, postId));
    default:
      return kind === selector.type;
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Keywords                                                                                         */

/** Case- and accent-insensitive form: NFD, combining marks removed, lower case, spaces collapsed. */
export function normaliseText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordChar = /[\p{L}\p{N}]/u;
const plainWords = /^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u;
const nonWord = /[^\p{L}\p{N}]+/u;

/** Whether a keyword is found in normalised text; see keywordMatcher. */
type KeywordMatcher = (normalisedText: string) => boolean;
const matchers = new Map<string, KeywordMatcher>();

/**
 * The matcher of a keyword in normalised text: its words in sequence (separated by anything that is
 * not a letter or digit), on whole words where the keyword starts or ends with a letter or digit
 * ("art" does not match "party"; "$$" matches wherever it appears). A keyword of letters, digits and
 * spaces (nearly all of them) is looked up among the text's words; any other is a pattern, whose
 * Unicode-aware regex is slow to compile: once per keyword and process, as a thousand automations'
 * keywords made compiling a visible share of the engine's time (bench/README.md).
 */
function keywordMatcher(normalisedKeyword: string): KeywordMatcher {
  let matcher = matchers.get(normalisedKeyword);
  if (!matcher) {
    if (plainWords.test(normalisedKeyword)) {
      const sequence = normalisedKeyword.split(' ');
      matcher = (text) => containsSequence(wordsOf(text), sequence);
    } else {
      const words = normalisedKeyword.split(' ').map(escapeRegExp);
      const before = wordChar.test(normalisedKeyword[0]!) ? '(?<![\\p{L}\\p{N}])' : '';
      const after = wordChar.test(normalisedKeyword[normalisedKeyword.length - 1]!) ? '(?![\\p{L}\\p{N}])' : '';
      const pattern = new RegExp(`${before}${words.join('[^\\p{L}\\p{N}]+')}${after}`, 'u');
      matcher = (text) => pattern.test(text);
    }
    if (matchers.size > 10_000) matchers.clear();
    matchers.set(normalisedKeyword, matcher);
  }
  return matcher;
}

/** The words (runs of letters and digits) of normalised text; a comment is matched against many keywords, so the last text's are kept. */
let lastText = '';
let lastWords: string[] = [];
function wordsOf(normalisedText: string): string[] {
  if (normalisedText !== lastText) {
    lastWords = normalisedText.split(nonWord).filter(Boolean);
    lastText = normalisedText;
  }
  return lastWords;
}

function containsSequence(words: readonly string[], sequence: readonly string[]): boolean {
  outer: for (let i = 0; i + sequence.length <= words.length; i++) {
    for (let j = 0; j < sequence.length; j++) if (words[i + j] !== sequence[j]) continue outer;
    return true;
  }
  return false;
}

const keywordsOf = (list: readonly string[]) => list.map(normaliseText).filter((k) => k.length > 0);

/** Whether any of the keywords appears in the text (whole words, any case and accents). */
export function containsAnyKeyword(text: string, keywords: readonly string[]): boolean {
  const normalised = normaliseText(text);
  return keywordsOf(keywords).some((k) => keywordMatcher(k)(normalised));
}

/* ------------------------------------------------------------------------------------------------ */
/* The comment-only checks, in the order their decline reasons are documented (docs/automations.md) */

export interface CommentFacts {
  /** The post's kind, when the selector needs it and it is known. */
  postKind: PostKind | null;
  timeZone: string | null;
}

/** An automation's keywords, normalised once (see automation-cache.ts). */
export interface AutomationKeywords {
  include: readonly string[];
  exclude: readonly string[];
}

const anyKeywordIn = (normalisedText: string, keywords: readonly string[]) => keywords.some((k) => keywordMatcher(k)(normalisedText));

/**
 * Whether the comment is addressed to the automation at all: its post is selected and its text
 * matches includeKeywords. A comment that is not is none of the automation's business: not
 * recorded, not missed (with a thousand automations, each comment concerns a few of them).
 */
export function targets(a: StoredCommentAutomation, k: AutomationKeywords, comment: CommentEvent, normalisedText: string, postKind: PostKind | null): boolean {
  if (!postSelected(a.post, comment.postId, postKind)) return false;
  if (a.includeKeywords.type === 'all' || k.include.length === 0) return true;
  if (a.includeKeywords.type === 'equal') return k.include.includes(normalisedText);
  return anyKeywordIn(normalisedText, k.include);
}

/**
 * Why an automation the comment is addressed to declines it before any contact is known, checked
 * in the documented order (schedule, replies, excluded keywords), or null when it passes.
 */
export function declineBeforeContact(a: StoredCommentAutomation, k: AutomationKeywords, comment: CommentEvent, normalisedText: string, timeZone: string | null): DeclineReason | null {
  if (!inSchedule(a.startTime, a.endTime, new Date(comment.createdAt), timeZone)) return 'outsideSchedule';
  if (a.options.ignoreCommentReplies && comment.parentId !== null) return 'commentReply';
  if (k.exclude.length > 0 && anyKeywordIn(normalisedText, k.exclude)) return 'excludedKeyword';
  return null;
}

/* ------------------------------------------------------------------------------------------------ */
/* Hiding                                                                                           */

/** Seven or more digits, optionally with a leading + and separators (spaces, dots, dashes, brackets). */
const phoneNumber = /\+?\d(?:[\s().-]*\d){6,}/u;
const link = /(?:https?:\/\/|www\.)\S+|\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:com|net|org|io|co|me|info|biz|shop|store|app|dev|ly|gl|link|site|online|xyz|us|uk|de|fr|es|it|br|in|ru)\b/iu;

const hasAttachment = (comment: CommentEvent, types: readonly string[]) => comment.attachments.some((a) => types.includes(a.type.toLowerCase()));

/** Which hideComments rule hits the comment first, or null when none does (hide it only then). */
export function hideRule(h: StoredCommentAutomation['hideComments'], comment: CommentEvent): string | null {
  if (h.all) return 'all';
  if (h.hasPhoneNumber && phoneNumber.test(comment.text)) return 'hasPhoneNumber';
  if (h.hasLink && (link.test(comment.text) || hasAttachment(comment, ['link', 'share', 'fallback']))) return 'hasLink';
  if (h.hasImage && hasAttachment(comment, ['image', 'photo', 'sticker', 'animated_image_share'])) return 'hasImage';
  if (h.hasVideo && hasAttachment(comment, ['video'])) return 'hasVideo';
  if (h.hasKeywords && h.keywords.length > 0 && containsAnyKeyword(comment.text, h.keywords)) return 'hasKeywords';
  return null;
}

const HOUR = 3_600_000;

/** showCommentsAfter as milliseconds, or null for `none` (the comment stays hidden). */
export function unhideDelayMs(showAfter: StoredCommentAutomation['hideComments']['showCommentsAfter']): number | null {
  if (showAfter === 'none') return null;
  if (showAfter.endsWith('h')) return Number(showAfter.slice(0, -1)) * HOUR;
  return Number(showAfter.slice(0, -1)) * 24 * HOUR;
}

/* ------------------------------------------------------------------------------------------------ */
/* Reply delay                                                                                      */

/**
 * replyAfter as milliseconds: `seconds`/`minutes`/`hours` multiply `value`; `immediately` is 0;
 * `randomWithinNMinutes` is uniform in 0..N minutes from `unit` (a seeded number in [0, 1)).
 */
export function replyDelayMs(delay: StoredCommentAutomation['replyAfter'], unit: number): number {
  // The schema allows 30 days; a row stored before that rule is held to it too.
  return Math.min(rawDelayMs(delay, unit), MAX_REPLY_DELAY_DAYS * 86_400_000);
}

function rawDelayMs(delay: StoredCommentAutomation['replyAfter'], unit: number): number {
  switch (delay.type) {
    case 'immediately':
      return 0;
    case 'seconds':
      return Math.round(delay.value * 1000);
    case 'minutes':
      return Math.round(delay.value * 60_000);
    case 'hours':
      return Math.round(delay.value * HOUR);
    default: {
      const minutes = Number(/^randomWithin(\d+)Minutes$/.exec(delay.type)![1]);
      return Math.floor(unit * minutes * 60_000);
    }
  }
}
