import type { GraphQLOperation } from '../graphql-operations.js';

export const conversationOperations: GraphQLOperation[] = [];
