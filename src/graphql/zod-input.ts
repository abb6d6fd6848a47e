import { z } from 'zod';
import { builder } from './builder.js';

/**
 * GraphQL input types derived from the zod schemas REST validates with: one walker over the
 * schema, so a field added to a body is an input field the moment it is enforced, with the same
 * nullability and description, and the schema still validates the argument (`.validate(schema)`).
 *
 * The walk reads what a client sends (the input side of every transform): strings are String,
 * whole numbers Int, other numbers Float, booleans Boolean, enumerations String (their values are
 * checked by the schema; `enums` names a GraphQL enum instead), arrays lists of non-null items,
 * nested objects input types of their own (named by their zod id, or `<Parent><Field>Input`).
 * A field is required when the schema requires it: optional, nullable and defaulted ones may be
 * left out. Unions (a discriminated union of element kinds, a number or a string) have no GraphQL
 * input form: such a field needs an override, a GraphQL type written for it.
 */
export interface ZodInputOptions {
  /** The type's description (default: the schema's own). */
  description?: string;
  /** Fields whose GraphQL type is written by hand (a global id, an enum, a scalar): name to type. */
  types?: Record<string, FieldType>;
  /**
   * Field descriptions where GraphQL says another thing than the schema (global ids), or `null`
   * where GraphQL describes the field with nothing.
   */
  descriptions?: Record<string, string | null>;
  /** Names for nested input types, by field name (default: the zod id, or `<Name><Field>Input`). */
  nested?: Record<string, string>;
  /**
   * GraphQL types for schemas wherever the walk meets them, nested types included: an enumeration
   * that GraphQL names as an enum, say. Nested types made on the way take these too.
   */
  schemaTypes?: Map<z.ZodType, FieldType>;
  /** Names for nested object schemas wherever the walk meets them. */
  schemaNames?: Map<z.ZodType, string>;
}

type FieldType = string | { kind: 'list'; of: string } | object;

/** What the walk found a zod schema to be, wrappers peeled off. */
interface Shape {
  schema: z.ZodType;
  required: boolean;
  description: string | undefined;
}

const def = (s: z.ZodType) => (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
const descriptionOf = (s: z.ZodType) => z.globalRegistry.get(s)?.description;

/** Peels optional, nullable, default, readonly and pipes (the input side) off a schema. */
function peel(schema: z.ZodType): Shape {
  let s = schema;
  let required = true;
  let description = descriptionOf(s);
  for (;;) {
    const d = def(s);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'prefault') {
      required = false;
      s = d.innerType as z.ZodType;
    } else if (d.type === 'readonly' || d.type === 'catch' || d.type === 'nonoptional') {
      s = d.innerType as z.ZodType;
    } else if (d.type === 'pipe') {
      const input = d.in as z.ZodType;
      s = def(input).type === 'transform' ? (d.out as z.ZodType) : input;
    } else if (d.type === 'lazy') {
      s = (d.getter as () => z.ZodType)();
    } else {
      break;
    }
    description ??= descriptionOf(s);
  }
  return { schema: s, required, description };
}

const scalarOf = (s: z.ZodType): string | null => {
  const d = def(s);
  switch (d.type) {
    case 'string':
    case 'enum':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'number': {
      const checks = (d.checks as { _zod: { def: { format?: string } } }[] | undefined) ?? [];
      const whole = d.format === 'safeint' || d.format === 'int32' || checks.some((c) => c._zod.def.format === 'safeint' || c._zod.def.format === 'int32');
      return whole ? 'Int' : 'Float';
    }
    case 'literal': {
      const value = (d.values as unknown[])[0];
      return typeof value === 'boolean' ? 'Boolean' : typeof value === 'number' ? (Number.isInteger(value) ? 'Int' : 'Float') : 'String';
    }
    default:
      return null;
  }
};

const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** The input types made so far, by name: one type per name, whoever asks for it. */
const made = new Map<string, ReturnType<typeof builder.inputRef>>();

/** A GraphQL input type with the object schema's fields. */
export function zodInputType(name: string, schema: z.ZodType, options: ZodInputOptions = {}) {
  const known = made.get(name);
  if (known) return known;
  const object = peel(schema).schema;
  if (def(object).type !== 'object') throw new Error(`zodInputType ${name}: not an object schema`);
  const shape = def(object).shape as Record<string, z.ZodType>;
  const ref = builder.inputRef<Record<string, unknown>>(name);
  made.set(name, ref);
  ref.implement({
    description: options.description ?? descriptionOf(schema) ?? descriptionOf(object),
    fields: (t) =>
      Object.fromEntries(
        Object.entries(shape).map(([key, field]) => {
          const { schema: inner, required, description: own } = peel(field);
          const description = options.descriptions && key in options.descriptions ? options.descriptions[key] : own;
          const type = options.types?.[key] ?? graphqlTypeOf(inner, options.nested?.[key] ?? nestedName(name, key, inner, options), options);
          return [key, t.field({ type: type as never, required, ...(description ? { description } : {}) })];
        }),
      ),
  });
  return ref;
}

/** A nested object's type name: as given, its zod id when it has one, else `<Parent><Field>Input`. */
function nestedName(parent: string, key: string, schema: z.ZodType, options: ZodInputOptions): string {
  const given = options.schemaNames?.get(schema);
  if (given) return given;
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id === 'string') return id.endsWith('Input') ? id : `${id}Input`;
  return `${parent.replace(/Input$/, '')}${capitalised(key)}Input`;
}

function graphqlTypeOf(schema: z.ZodType, nestedTypeName: string, options: ZodInputOptions): unknown {
  const given = options.schemaTypes?.get(schema);
  if (given) return given;
  const scalar = scalarOf(schema);
  if (scalar) return scalar;
  const d = def(schema);
  if (d.type === 'array') {
    const item = peel(d.element as z.ZodType).schema;
    return [graphqlTypeOf(item, options.schemaNames?.get(item) ?? nestedTypeName, options)];
  }
  if (d.type === 'object') return zodInputType(nestedTypeName, schema, { schemaTypes: options.schemaTypes, schemaNames: options.schemaNames });
  throw new Error(`zodInputType: a ${d.type} field has no GraphQL input form; give its type in options.types (${nestedTypeName})`);
}
