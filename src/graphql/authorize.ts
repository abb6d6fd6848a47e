import SchemaBuilder, {
  BasePlugin,
  PothosSchemaError,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { GraphQLField, GraphQLFieldResolver } from 'graphql';
import { assertAccess, type AccessRule } from '../domain/auth/access.js';
import { assertStorableText } from '../errors/validation.js';
import type { GraphQLContext } from './context.js';

/**
 * A field option, `access: {action, scope, schemes?}`, that applies the access rules REST applies by
 * method and route: token kind, read-only permission, scope and plan gates all come from the one
 * `assertAccess`. It runs before argument validation (as REST checks access before parsing input),
 * and every Query and Mutation field must declare one: a root field cannot forget its rule.
 */
export class PothosAccessPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const isRoot = fieldConfig.kind === 'Query' || fieldConfig.kind === 'Mutation' || fieldConfig.kind === 'Subscription';
    if (!isRoot) return fieldConfig;
    if (!fieldConfig.pothosOptions.access) {
      throw new PothosSchemaError(`${fieldConfig.parentType}.${fieldConfig.name} must declare its access rule (access: {action, scope})`);
    }
    if (Object.keys(fieldConfig.args).length === 0) return fieldConfig;
    // REST's text rule on every argument, document literals and variables alike (paths such as
    // ["identifier"] or ["input", "firstName"]): the first argument mapper, so it runs after the
    // access rule (wrapArgMappers below) and before the zod validation the validation plugin adds
    // after it, as REST orders them; the cost limit, which reads mapped arguments, applies it too.
    return { ...fieldConfig, argMappers: [rejectUnstorableText, ...fieldConfig.argMappers] };
  }

  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    const rule = fieldConfig.pothosOptions.access;
    if (!rule || rule === 'eachNodeType' || !resolver) return resolver;
    return async (parent, args, ctx, info) => {
      const { db, who } = ctx as GraphQLContext;
      await assertAccess(db, who, rule);
      return resolver(parent, args, ctx, info);
    };
  }
}

/** NUL characters and lone surrogates are 422 invalidRequestData, as on REST (src/errors/validation.ts). */
const rejectUnstorableText = (args: Record<string, unknown>) => {
  assertStorableText(args);
  return args;
};

SchemaBuilder.registerPlugin('access', PothosAccessPlugin);

/**
 * A field's access option: a rule, or `eachNodeType` for `node` and `nodes`, whose record type is
 * known only from each id: they apply each type's own rule themselves (src/graphql/node.ts).
 */
export type FieldAccess = AccessRule | 'eachNodeType';

/**
 * The error the access rule of a built field raises for this caller, or null when it allows it.
 * For checks that run before execution (the cost limit validates arguments while costing them),
 * so that, as on REST, a caller without access learns that before learning its input is invalid.
 */
export async function accessDenial(field: GraphQLField<unknown, unknown> | undefined, ctx: GraphQLContext): Promise<unknown> {
  const rule = (field?.extensions.pothosOptions as { access?: FieldAccess } | undefined)?.access;
  if (!rule || rule === 'eachNodeType') return null;
  return assertAccess(ctx.db, ctx.who, rule).then(
    () => null,
    (err: unknown) => err,
  );
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      access: PothosAccessPlugin<Types>;
    }
    export interface FieldOptions<Types extends SchemaTypes, ParentShape, Type extends TypeParam<Types>, Nullable extends FieldNullability<Type>, Args extends InputFieldMap, ResolveShape, ResolveReturnShape> {
      /** Who may resolve this field: see `assertAccess`. Required on Query and Mutation fields. */
      access?: FieldAccess;
    }
  }
}

export default 'access' as const;
