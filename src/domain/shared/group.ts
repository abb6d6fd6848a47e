/** Groups rows by a key, keeping row order: the shape batch loaders and nested objects need. */
export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** For each key, in key order, its group (empty when none): DataLoader's batch contract. */
export const inKeyOrder = <T, K>(keys: readonly K[], groups: Map<K, T[]>): T[][] => keys.map((k) => groups.get(k) ?? []);
