import { LRUCache } from 'lru-cache';
import type { Executor } from '../../db/database.js';

/**
 * What a read found costly to learn (a search's count past its bound), kept for a few seconds so
 * that the next pages, and the next caller, do not pay for it again. Each database has its own
 * memory (a test process opens many), keyed by its adapter: the one object a request's handle (a
 * statement-counting copy) and a transaction share with the database they come from. The memory
 * is per process: another process counts once for itself.
 */
export interface Remembered<V extends {}> {
  get(db: Executor, key: string): V | undefined;
  set(db: Executor, key: string, value: V): void;
}

/**
 * Expiry on the wall clock, read at every look-up, as every other expiry of the service. (The
 * library's default caches its clock until a timer clears it, and a run of requests that never
 * yields to the timers would see the time stand still.)
 */
const clock = { perf: { now: () => Date.now() }, ttlResolution: 0 };

export function remembered<V extends {}>(options: { forMs: number; max: number }): Remembered<V> {
  const perDatabase = new WeakMap<object, LRUCache<string, V>>();
  const cacheOf = (db: Executor) => {
    const adapter = db.getExecutor().adapter;
    let cache = perDatabase.get(adapter);
    if (!cache) perDatabase.set(adapter, (cache = new LRUCache<string, V>({ max: options.max, ttl: options.forMs, ...clock })));
    return cache;
  };
  return {
    get: (db, key) => perDatabase.get(db.getExecutor().adapter)?.get(key),
    set: (db, key, value) => void cacheOf(db).set(key, value),
  };
}
