import { identifierParams } from '../domain/contacts/contact.schema.js';
import { builder } from './builder.js';
import { decodeNodeId } from './node.js';

/**
 * Argument helpers every type file shares: GraphQL arguments arrive in GraphQL's forms (global
 * ids, explicit nulls) and are brought to the forms the REST zod schemas check.
 */

/** The argument builder of a root field (`t.arg`). */
export type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];

/** GraphQL sends omitted input fields as undefined but explicit nulls as null: both mean "not given". */
export const withoutNulls = (o: unknown) => (o && typeof o === 'object' ? Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) : o);

/**
 * Ids in GraphQL arguments may be global ids: those of `typename` become their plain digit id
 * before the REST schema checks the value (anything else is left for it to refuse).
 */
export const plainIds = (typename: string) => (value: unknown) => {
  const plain = (v: unknown) => {
    if (typeof v !== 'string' || /^\d+$/.test(v)) return v;
    const node = decodeNodeId(v);
    return node?.typename === typename ? node.id : v;
  };
  return Array.isArray(value) ? value.map(plain) : plain(value);
};

/** A Contact's global id as `id:<digits>`; anything else is REST's identifier. */
export const contactIdentifier = (identifier: string) => {
  const node = /^\d+$/.test(identifier) ? null : decodeNodeId(identifier);
  return node?.typename === 'Contact' ? `id:${node.id}` : identifier;
};

/** A contact identifier argument, checked by REST's identifier rule. */
export const identifierArg = (arg: ArgBuilder) =>
  arg.string({ required: true, description: 'Contact id, email or phone (or prefixed id:/email:/phone:, as REST), or its global id', validate: identifierParams.shape.identifier });
