import type { Executor } from '../../db/database.js';
import type { Channel } from '../../domain/comment-automations/comment-automation.schema.js';
import { commentAutomationsOfChannels, commentAutomationsVersionAndSettings, type StoredCommentAutomation } from '../../domain/comment-automations/comment-automation.repository.js';
import { normaliseText } from './comment-matching.js';

/** An active automation with its keywords normalised once, for matching many comments. */
export interface CompiledAutomation {
  automation: StoredCommentAutomation;
  id: number;
  include: string[];
  exclude: string[];
}

/**
 * The active automations of a channel, with an index by the first word of each `contain` keyword
 * and by each whole `equal` keyword: a comment is checked only against the automations one of its
 * own words can concern, so matching costs about the same for ten automations as for a thousand.
 */
export interface AutomationSet {
  all: CompiledAutomation[];
  /** Candidates for a comment whose normalised text is `text`, in the order of `all`. */
  candidates(text: string): CompiledAutomation[];
}

interface Entry {
  version: number;
  set: AutomationSet;
}

const words = (normalised: string) => normalised.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const startsWithWord = /^[\p{L}\p{N}]/u;

function indexed(all: CompiledAutomation[]): AutomationSet {
  const always: number[] = [];
  const byWord = new Map<string, number[]>();
  const byText = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, i: number) => {
    const list = map.get(key) ?? [];
    if (list[list.length - 1] !== i) list.push(i);
    map.set(key, list);
  };
  all.forEach((c, i) => {
    const include = c.automation.includeKeywords;
    if (include.type === 'all' || c.include.length === 0) return always.push(i);
    if (include.type === 'equal') return c.include.forEach((k) => add(byText, k, i));
    // A keyword starting with a symbol ("$$") can appear anywhere: always a candidate.
    if (c.include.some((k) => !startsWithWord.test(k))) return always.push(i);
    for (const k of c.include) add(byWord, words(k)[0]!, i);
  });
  return {
    all,
    candidates(text) {
      const picked = new Set<number>(always);
      for (const i of byText.get(text) ?? []) picked.add(i);
      for (const w of new Set(words(text))) for (const i of byWord.get(w) ?? []) picked.add(i);
      return [...picked].sort((a, b) => a - b).map((i) => all[i]!);
    },
  };
}

/**
 * The active comment automations of a workspace's channel, compiled, per process. Every comment is
 * judged by all of them, so reading and parsing a thousand rows per event would be the engine's
 * main cost: instead each event reads the workspace's version (one primary-key read) and reloads
 * only when a definition changed (the repository moves the version on every write, in any
 * process). One cache per engine (EngineDeps.automations), not per database handle: a job-wide
 * transaction is a new handle every job, and keying by it reloaded a thousand automations per job.
 */
export interface AutomationCache {
  /** The set, with the workspace's current timezone and MAC limit (read with the version, never cached). */
  active(db: Executor, workspaceId: number, channel: Channel): Promise<AutomationSet & { timezone: string | null; macLimit: number | null }>;
}

export function createAutomationCache(): AutomationCache {
  const cache = new Map<string, Entry>();
  return {
    async active(db, workspaceId, channel) {
      // Read before the list: a change committed in between is reloaded next time, never missed.
      const current = await commentAutomationsVersionAndSettings(db, workspaceId);
      if (current === null) return { ...indexed([]), timezone: null, macLimit: null };
      const { version, timezone, macLimit } = current;
      const key = `${workspaceId}:${channel}`;
      const hit = cache.get(key);
      if (hit && hit.version === version) return { ...hit.set, timezone, macLimit };
      const automations = (await commentAutomationsOfChannels(db, workspaceId, [channel]))
        .filter((a) => a.isActive)
        .map((a) => ({
          automation: a,
          id: Number(a.id),
          include: a.includeKeywords.value.map(normaliseText).filter((k) => k.length > 0),
          exclude: a.excludeKeywords.map(normaliseText).filter((k) => k.length > 0),
        }));
      // Bounded: a process serving many workspaces keeps the most recently loaded ones.
      if (cache.size >= 10_000) cache.delete(cache.keys().next().value!);
      const set = indexed(automations);
      cache.set(key, { version, set });
      return { ...set, timezone, macLimit };
    },
  };
}
