import { resolveNodes } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { assertAccess } from '../../domain/auth/access.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { decodeNodeId, nodeTypeInfo } from '../node.js';

/** At most this many ids per `nodes` call (as `first` caps a page): more is a 422, never clamped. */
export const MAX_NODE_IDS = 100;

/**
 * Resolves global ids to records, in order. An id that is not a global id of a Node type, or names
 * no record of the caller's workspace, is null. A type the caller may not read (its area's scope,
 * token kind) is that type's FORBIDDEN error, as its root field would answer, checked once per type.
 * Allowed ids load through the types' per-request DataLoaders (one statement per type).
 */
async function resolveGlobalIds(ids: readonly string[], ctx: GraphQLContext, info: GraphQLResolveInfo): Promise<unknown[]> {
  const decoded = ids.map((id) => {
    const d = decodeNodeId(id);
    return d && nodeTypeInfo(d.typename) ? d : null;
  });
  const denials = new Map<string, unknown>();
  for (const typename of new Set(decoded.flatMap((d) => (d ? [d.typename] : [])))) {
    const denied = await assertAccess(ctx.db, ctx.who, nodeTypeInfo(typename)!.rule).then(
      () => null,
      (err: unknown) => err,
    );
    if (denied) denials.set(typename, denied);
  }
  const allowed = decoded.map((d) => (d && !denials.has(d.typename) ? d : null));
  const loaded = await resolveNodes(builder, ctx, info, allowed);
  return decoded.map((d, i) => (d && denials.has(d.typename) ? Promise.reject(denials.get(d.typename)) : (loaded[i] ?? null)));
}

builder.queryField('node', (t) =>
  t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'Any record by its global id (the `id` of every Node type). Null when the id is not a global id or names no record of this workspace; FORBIDDEN when the token may not read that type (its area\'s scope, as the type\'s own root field).',
    access: 'eachNodeType',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx, info) => {
      const [node] = await resolveGlobalIds([String(id)], ctx, info);
      return node as never;
    },
  }),
);

builder.queryField('nodes', (t) =>
  t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `Records by global id, in the order asked, each as \`node\` answers it (null, the record, or a FORBIDDEN error at its index). At most ${MAX_NODE_IDS} ids; one SQL statement per type asked for.`,
    access: 'eachNodeType',
    args: { ids: t.arg.idList({ required: true }) },
    validate: z.object({ ids: z.array(z.unknown()).max(MAX_NODE_IDS, `ids must hold at most ${MAX_NODE_IDS} ids`) }),
    // Each id may be any type: its selection counts once per id.
    complexity: (args) => ({ field: 1, multiplier: Math.max(1, args.ids?.length ?? 1) }),
    resolve: (_r, { ids }, ctx, info) => resolveGlobalIds(ids.map(String), ctx, info) as never,
  }),
);
