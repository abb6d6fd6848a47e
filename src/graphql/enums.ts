import { builder } from './builder.js';

/**
 * A GraphQL enum for a contract enum. Values that are not GraphQL names (`6h`, `1d`) get a leading
 * underscore (`_6h`); internally every value is the contract's string, so REST and GraphQL store
 * and validate the same thing.
 */
export function contractEnum<const V extends readonly string[]>(name: string, values: V, description?: string) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((v) => [/^[_A-Za-z]/.test(v) ? v : `_${v}`, { value: v }])) as { [K in V[number]]: { value: K } },
  });
}
