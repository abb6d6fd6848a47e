import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * GraphQL Code Generator: typed documents for the GraphQL tests, from the printed schema
 * (schema.graphql, `npm run schema:print`) and the operations in test/graphql/*.graphql.
 * `npm run codegen` writes test/graphql/generated/; `npm run codegen:check` fails when that folder
 * is stale. CODEGEN_OUT redirects the output (the tooling test checks staleness on a copy).
 */
const out = process.env.CODEGEN_OUT ?? 'test/graphql/generated/';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/graphql/**/*.graphql'],
  ignoreNoDocuments: false,
  importExtension: '.js',
  generates: {
    [out]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // Documents as strings: the tests send them as they are, with their result and variable types.
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: { DateTime: 'string', SafeInt: 'number', FilterValue: 'string | number | boolean | Array<string | number | boolean>', WebhookEntry: 'Record<string, unknown>', JSON: 'unknown' },
      },
    },
  },
};

export default config;
