import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * What a document asks for once its fragments are spread out, measured without spreading them:
 * each fragment's figures are computed once and a spread adds its fragment's figures. A fragment
 * that spreads the next one twice, fifty levels down, asks for 2^50 fields in a few hundred
 * tokens; spreading it out (as graphql-jit's compiler does) would hold the event loop for hours,
 * measuring it takes microseconds.
 */
export interface DocumentMeasure {
  /** Field nodes of the largest operation once its fragments are spread (`__typename` included). */
  fields: number;
  /** Deepest field nesting of any operation (fragments flattened, `__schema` not counted). */
  depth: number;
  /** Aliased fields of the largest operation, spread out (`__typename` aliases are free). */
  aliases: number;
  /** Directives of the largest operation, spread out. */
  directives: number;
  /** Fragment spreads written in the document (not spread out). */
  spreads: number;
  /** The most directives any one field, fragment spread or inline fragment carries. */
  fieldDirectives: number;
  /**
   * Selections the measure looked at: each one written in the document once, however often its
   * fragment is spread. The figure that shows the measure never spreads fragments out.
   */
  visited: number;
}

export interface DocumentLimits {
  maxFields: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxSpreads: number;
  maxFieldDirectives: number;
}

interface Figures {
  fields: number;
  depth: number;
  aliases: number;
  directives: number;
}

const none: Figures = { fields: 0, depth: 0, aliases: 0, directives: 0 };

/** Sums stop growing here: a figure past it is only ever reported as "more than" it. */
const CEILING = Number.MAX_SAFE_INTEGER;
const add = (a: number, b: number) => Math.min(a + b, CEILING);

/**
 * Measures every operation of a document, in time linear in its size. A spread of a fragment that
 * is missing, or that spreads itself, adds nothing: validation (which runs later) refuses both.
 */
export function measureDocument(document: DocumentNode): DocumentMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const known = new Map<string, Figures>();
  const active = new Set<string>();
  let spreads = 0;
  let fieldDirectives = 0;
  let visited = 0;

  const noteDirectives = (n: number) => {
    if (n > fieldDirectives) fieldDirectives = n;
    return n;
  };

  const fragment = (name: string): Figures => {
    const done = known.get(name);
    if (done) return done;
    const definition = fragments.get(name);
    if (!definition || active.has(name)) return none;
    active.add(name);
    const inner = selectionSet(definition.selectionSet);
    active.delete(name);
    const figures = { ...inner, directives: add(inner.directives, definition.directives?.length ?? 0) };
    known.set(name, figures);
    return figures;
  };

  const selectionSet = (set: SelectionSetNode): Figures => {
    let fields = 0;
    let depth = 0;
    let aliases = 0;
    let directives = 0;
    for (const s of set.selections) {
      visited++;
      directives = add(directives, noteDirectives(s.directives?.length ?? 0));
      let inner: Figures;
      if (s.kind === Kind.FIELD) {
        inner = s.selectionSet ? selectionSet(s.selectionSet) : none;
        fields = add(fields, 1);
        if (s.alias && s.alias.value !== '__typename' && s.name.value !== '__typename') aliases = add(aliases, 1);
        // Introspection is as deep as the schema's types; depth is a limit on data.
        const ownDepth = s.name.value === '__schema' ? 0 : 1 + inner.depth;
        if (ownDepth > depth) depth = ownDepth;
      } else {
        if (s.kind === Kind.FRAGMENT_SPREAD) spreads++;
        inner = s.kind === Kind.FRAGMENT_SPREAD ? fragment(s.name.value) : selectionSet(s.selectionSet);
        if (inner.depth > depth) depth = inner.depth;
      }
      fields = add(fields, inner.fields);
      aliases = add(aliases, inner.aliases);
      directives = add(directives, inner.directives);
    }
    return { fields, depth, aliases, directives };
  };

  const measure: DocumentMeasure = { fields: 0, depth: 0, aliases: 0, directives: 0, spreads: 0, fieldDirectives: 0, visited: 0 };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const op = selectionSet(d.selectionSet);
    measure.fields = Math.max(measure.fields, op.fields);
    measure.depth = Math.max(measure.depth, op.depth);
    measure.aliases = Math.max(measure.aliases, op.aliases);
    measure.directives = Math.max(measure.directives, add(op.directives, d.directives?.length ?? 0));
  }
  // Fragments no operation spreads are measured too: their spreads and directives are written.
  for (const name of fragments.keys()) fragment(name);
  measure.spreads = spreads;
  measure.fieldDirectives = fieldDirectives;
  measure.visited = visited;
  return measure;
}

/**
 * The limits a measure breaks, each as GraphQL's error for the document, worded as graphql-armor
 * words its own (`Query depth limit of 8 exceeded, found 10.`), which describe.ts rewords for
 * `message` (`Query depth 10 exceeds the limit of 8`).
 */
export function limitErrors(measure: DocumentMeasure, limits: DocumentLimits): GraphQLError[] {
  const found = (n: number) => (n >= CEILING ? `at least ${CEILING}` : String(n));
  const checks: [number, number, string][] = [
    [measure.spreads, limits.maxSpreads, 'Fragment spreads limit'],
    [measure.fields, limits.maxFields, 'Query field count limit'],
    [measure.depth, limits.maxDepth, 'Query depth limit'],
    [measure.aliases, limits.maxAliases, 'Aliases limit'],
    [measure.directives, limits.maxDirectives, 'Directives limit'],
    [measure.fieldDirectives, limits.maxFieldDirectives, 'Directives per field limit'],
  ];
  return checks.filter(([n, max]) => n > max).map(([n, max, what]) => new GraphQLError(`${what} of ${max} exceeded, found ${found(n)}.`));
}

/** Measures kept per parsed document: Yoga's parser cache hands back the same DocumentNode for the same text. */
const measures = new WeakMap<DocumentNode, DocumentMeasure>();

export function measureOf(document: DocumentNode): DocumentMeasure {
  let measure = measures.get(document);
  if (!measure) measures.set(document, (measure = measureDocument(document)));
  return measure;
}

/**
 * Refuses a document over any limit before GraphQL validates it: validation itself spreads
 * fragments to compare fields (work that grows with the fan-out of chained fragments), and
 * nothing of a refused document may reach the JIT compiler or a resolver. Validation results are
 * cached per document by Yoga, this refusal with them.
 */
export function documentLimitsPlugin(limits: DocumentLimits): Plugin {
  return {
    onValidate({ params, setResult }) {
      const errors = limitErrors(measureOf(params.documentAST), limits);
      if (errors.length > 0) setResult(errors);
    },
  };
}
