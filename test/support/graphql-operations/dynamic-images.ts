import {
  CreateDynamicImageDocument,
  DeleteDynamicImageDocument,
  DynamicImageDocument,
  SetDynamicImageEnabledDocument,
  UpdateDynamicImageDocument,
} from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';

/** A canvas with one picture, valid for create and update. */
const data = { width: 600, height: 400, elements: [{ id: 'logo', x: 20, y: 20, width: 100, height: 100, type: 'image', imageType: 'url', url: 'https://cdn.example.com/logo.png' }] };

/** A fresh image of the workspace, as its plain id. */
const imageOf = async (t: Parameters<GraphQLOperation['prepare']>[0], ws: number) => String(await fixtures(t.db, ws).dynamicImage(`Image ${unique()}`));

const access = (action: GraphQLOperation['action']) => ({ action, scope: 'dynamic_images' as const, workspaceTokensOnly: false });

export const dynamicImageOperations: GraphQLOperation[] = [
  {
    field: 'Query.dynamicImage',
    ...access('read'),
    prepare: async (t, ws) => {
      const id = await imageOf(t, ws);
      return (o) => gql(t, DynamicImageDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.createDynamicImage',
    ...access('write'),
    prepare: async (t) => (o) => gql(t, CreateDynamicImageDocument, { input: { name: `Image ${unique()}`, data } }, o),
  },
  {
    field: 'Mutation.updateDynamicImage',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await imageOf(t, ws);
      return (o) => gql(t, UpdateDynamicImageDocument, { id, input: { name: 'Renamed', backgroundUrl: '', enabled: false, data } }, o);
    },
  },
  {
    field: 'Mutation.setDynamicImageEnabled',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await imageOf(t, ws);
      return (o) => gql(t, SetDynamicImageEnabledDocument, { id, enabled: false }, o);
    },
  },
  {
    field: 'Mutation.deleteDynamicImage',
    ...access('delete'),
    prepare: async (t, ws) => {
      const id = await imageOf(t, ws);
      return (o) => gql(t, DeleteDynamicImageDocument, { id }, o);
    },
  },
];
