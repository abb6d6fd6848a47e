import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './types/workspace.type.js';

/** Imports every type module (each registers itself on the builder) and builds the schema. */
export const schema = lexicographicSortSchema(builder.toSchema());
