import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed documents for the app, from the API's printed schema (../../schema.graphql). Each
 * component declares its fragment beside it with `graphql(...)`; fragment masking is on, so a
 * component reads only the fields its own fragment asks for. `npm run codegen` writes src/gql/;
 * `npm run codegen:check` fails when a schema change breaks a document or src/gql/ is stale.
 */
const config: CodegenConfig = {
  schema: '../../schema.graphql',
  documents: ['src/**/*.tsx', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    'src/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: { unmaskFunctionName: 'useFragment' } },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        strictScalars: true,
        scalars: { DateTime: 'string', SafeInt: 'number', FilterValue: 'string | number | boolean | Array<string | number | boolean>', WebhookEntry: 'Record<string, unknown>', JSON: 'unknown' },
      },
    },
  },
};

export default config;
