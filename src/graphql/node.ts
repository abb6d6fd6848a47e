import { decodeGlobalID } from '@pothos/plugin-relay';
import { isObjectType, type GraphQLSchema } from 'graphql';
import type DataLoader from 'dataloader';
import { z } from 'zod';
import type { AccessRule } from '../domain/auth/access.js';
import type { GraphQLContext } from './context.js';

/**
 * Relay's Node interface. Every object type that is a record (has an id of its own) is a Node: its
 * `id` is the global id, base64 of `Type:rawId` (the relay plugin's encoding), which Relay and
 * Apollo normalised caches key on; `rawId` is the contract's plain digit id, the `id` of REST
 * bodies. Foreign keys (`contactId`, `workspaceId`, `inboxId`, ...) stay plain ids, as on REST.
 *
 * Each Node type states the access rule of the area it belongs to (as its root field would) and
 * loads through a per-request DataLoader scoped to the caller's workspace, so `node`/`nodes` read
 * another workspace's id as null and `nodes(ids:)` costs one statement per type.
 */
export interface NodeTypeInfo {
  rule: AccessRule;
}

const nodeTypes = new Map<string, NodeTypeInfo>();

export const nodeTypeInfo = (typename: string): NodeTypeInfo | undefined => nodeTypes.get(typename);

/**
 * The options builder.node needs for a record type: `id` from the row's plain id, loading through
 * the given per-request DataLoader. Registers the type's access rule for `node` and `nodes`.
 */
export function nodeOptions<T extends { id: string | number }>(typename: string, rule: AccessRule, loader: (ctx: GraphQLContext) => DataLoader<number, T | null>) {
  nodeTypes.set(typename, { rule });
  return {
    id: { resolve: plainId },
    // One promise per id: the DataLoader batches them into one statement (and shares its cache).
    loadMany: (ids: readonly string[], ctx: GraphQLContext) => ids.map((id) => loader(ctx).load(Number(id))),
  };
}

/** A record's plain id, of which its global id is made. */
const plainId = (row: { id: string | number }) => String(row.id);

/**
 * Every Node type's `id` resolved synchronously, as base64 of `Type:rawId` (what the relay plugin
 * answers): the plugin's resolver is async and builds an object per id, so each id on a page cost
 * a promise and its ticks (a nested contacts page resolves several hundred). Applied to the built
 * schema, before anything executes it.
 */
export function resolveGlobalIdsSynchronously(schema: GraphQLSchema): GraphQLSchema {
  for (const typename of nodeTypes.keys()) {
    const type = schema.getType(typename);
    const field = isObjectType(type) ? type.getFields().id : undefined;
    if (!field) throw new Error(`Node type ${typename} has no id field`);
    field.resolve = (row: { id: string | number }) => globalIdOf(typename, plainId(row));
  }
  return schema;
}

/**
 * The relay plugin's encoding, base64 of the UTF-8 of `Type:rawId`, by `btoa`: a GraphQL type name
 * and a record's id (an integer column) are ASCII, whose UTF-8 is its Latin-1, so the text is the
 * same (the tests compare with the plugin's `encodeGlobalID`). `btoa` is several times faster
 * than the plugin's Buffer round trip, and a nested page has a few hundred ids.
 */
const globalIdOf = (typename: string, rawId: string) => btoa(`${typename}:${rawId}`);

/** `rawId: String!`: the contract's plain id (REST's `id`); `id` is the Relay global id. */
export const rawIdField = (t: any) =>
  t.string({ description: "The record's plain digit id, as REST's `id` (the `id` field is the Relay global id)", resolve: plainId });

const digits = /^\d{1,15}$/;

/** A global id as `{typename, id}`, or null when it is not one (garbled, or not `Type:digits`). */
export function decodeNodeId(value: string): { typename: string; id: string } | null {
  try {
    const decoded = decodeGlobalID(value);
    return digits.test(decoded.id) ? decoded : null;
  } catch {
    return null;
  }
}

/**
 * An argument that names a record of one type: its global id or its plain digit id (as before
 * global ids), parsed to the digit id. Another type's global id, or anything else, is a 422 at the
 * argument's path saying so.
 */
export const recordIdArg = (typename: string) =>
  z.string().transform((value, ctx) => {
    if (digits.test(value)) return value;
    const decoded = decodeNodeId(value);
    if (decoded?.typename === typename) return decoded.id;
    ctx.addIssue({
      code: 'custom',
      message: decoded
        ? `must be a ${typename} id, but this is the global id of a ${decoded.typename}`
        : `must be a ${typename} global id or a digit string`,
    });
    return z.NEVER;
  });
