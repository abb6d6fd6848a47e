import { GraphQLError, Kind, type DocumentNode, type ExecutionResult, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * graphql-jit (see yoga-options.ts) reports a field's error with its path but without the field's
 * node, so without `locations`; graphql-js gave both, and clients point at the failing field with
 * them. This restores them from the document: the field nodes at the error's path.
 */
export function restoreErrorLocationsPlugin(): Plugin {
  const restore = (result: ExecutionResult, args: { document: DocumentNode; operationName?: string | null }, setResult: (r: ExecutionResult) => void) => {
    if (!result.errors?.some(needsNodes)) return;
    const errors = result.errors.map((error) => {
      if (!needsNodes(error)) return error;
      const nodes = fieldNodesAt(args.document, args.operationName, error.path!);
      if (nodes.length === 0) return error;
      return new GraphQLError(error.message, { nodes, path: error.path, originalError: error.originalError ?? undefined, extensions: error.extensions });
    });
    setResult({ ...result, errors });
  };
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result, setResult }) {
          if ('errors' in result) restore(result, args, setResult);
        },
      };
    },
    // Each event of a subscription is executed on its own, with the same document.
    onSubscribe({ args }) {
      return {
        onSubscribeResult() {
          return { onNext: ({ result, setResult }) => restore(result, args, setResult) };
        },
      };
    },
  };
}

const needsNodes = (error: GraphQLError) => error.path !== undefined && error.path.length > 0 && (error.nodes === undefined || error.nodes.length === 0);

/** The field nodes a response path names in the operation: response keys (aliases) followed through fragments; list indexes skipped. */
export function fieldNodesAt(document: DocumentNode, operationName: string | null | undefined, path: readonly (string | number)[]): FieldNode[] {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation) return [];
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  let sets: SelectionSetNode[] = [operation.selectionSet];
  let nodes: FieldNode[] = [];
  for (const key of path) {
    if (typeof key === 'number') continue;
    nodes = sets.flatMap((set) => fieldsNamed(set, key, fragments));
    sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
  }
  return nodes;
}

function fieldsNamed(set: SelectionSetNode, responseKey: string, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): FieldNode[] {
  const found: FieldNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if ((selection.alias ?? selection.name).value === responseKey) found.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      found.push(...fieldsNamed(selection.selectionSet, responseKey, fragments, seen));
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) found.push(...fieldsNamed(fragment.selectionSet, responseKey, fragments, new Set([...seen, name])));
    }
  }
  return found;
}
