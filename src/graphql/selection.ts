import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The names of the fields the query selects at `path` below the field being resolved
 * (`['edges', 'node']` under a connection): through aliases, named and inline fragments, whatever
 * their type conditions and @skip/@include directives, and in every place the field is asked for
 * (a field named twice in one selection merges into one resolver call). So the set holds every
 * field execution can resolve there, and maybe more; never fewer.
 */
export function selectedFieldNames(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: readonly string[]): Set<string> {
  let level: readonly FieldNode[] = info.fieldNodes;
  for (const name of path) level = fieldsOf(info, level).filter((field) => field.name.value === name);
  return new Set(fieldsOf(info, level).map((field) => field.name.value));
}

/** The fields directly inside the selection sets of `fields`, fragments spread out. */
function fieldsOf(info: Pick<GraphQLResolveInfo, 'fragments'>, fields: readonly FieldNode[]): FieldNode[] {
  const found: FieldNode[] = [];
  const visit = (set: SelectionSetNode | undefined, spread: Set<string>) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) found.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet, spread);
      else if (!spread.has(selection.name.value)) {
        // Validation refuses fragment cycles before execution; the set keeps this walk finite anyway.
        spread.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, spread);
      }
    }
  };
  for (const field of fields) visit(field.selectionSet, new Set());
  return found;
}
