import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { findServiceSecret, insertServiceSecret } from './service-secret.repository.js';

const cache = new WeakMap<object, Map<string, Promise<Buffer>>>();

/**
 * A random 32-byte key the service makes for itself on first use and keeps in `service_secrets`
 * under `name`, so every process on the database signs and checks alike and what it signed
 * outlives restarts (public links). Read once per database handle and name.
 */
export function serviceSecret(db: Executor, name: string): Promise<Buffer> {
  let byName = cache.get(db);
  if (!byName) cache.set(db, (byName = new Map()));
  let key = byName.get(name);
  if (!key) {
    key = storedSecret(db, name);
    byName.set(name, key);
    key.catch(() => byName.delete(name));
  }
  return key;
}

async function storedSecret(db: Executor, name: string): Promise<Buffer> {
  await insertServiceSecret(db, name, randomBytes(32).toString('hex'));
  return Buffer.from(await findServiceSecret(db, name), 'hex');
}
