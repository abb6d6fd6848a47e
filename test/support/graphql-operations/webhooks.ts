import {
  CreateExternalWebhookDocument,
  CreateWebhookDocument,
  DeleteExternalWebhookDocument,
  DeleteWebhookDocument,
  ExternalWebhooksDocument,
  RecoverWebhookDocument,
  RetryWebhookDeliveryDocument,
  RotateWebhookSecretDocument,
  TestWebhookDocument,
  UpdateWebhookDocument,
  WebhookDeliveriesDocument,
  WebhookDocument,
  WebhooksDocument,
} from '../../graphql/generated/graphql.js';
import { fixtures } from '../fixtures.js';
import { gql } from '../graphql.js';
import { unique, type GraphQLOperation } from '../graphql-operations.js';

/** A fresh webhook of the workspace, as its plain id. */
const webhookOf = async (t: Parameters<GraphQLOperation['prepare']>[0], ws: number) => String(await fixtures(t.db, ws).webhook(`hook-${unique()}`));

const access = (action: GraphQLOperation['action']) => ({ action, scope: 'webhooks' as const, workspaceTokensOnly: false });

export const webhookOperations: GraphQLOperation[] = [
  { field: 'Query.webhooks', ...access('read'), prepare: async (t) => (o) => gql(t, WebhooksDocument, { perPage: 5 }, o) },
  {
    field: 'Query.webhook',
    ...access('read'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, WebhookDocument, { id }, o);
    },
  },
  {
    field: 'Query.webhookDeliveries',
    ...access('read'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      await fixtures(t.db, ws).webhookDelivery(Number(id));
      return (o) => gql(t, WebhookDeliveriesDocument, { id, status: 'pending' }, o);
    },
  },
  { field: 'Query.externalWebhooks', ...access('read'), prepare: async (t) => (o) => gql(t, ExternalWebhooksDocument, {}, o) },
  {
    field: 'Mutation.createWebhook',
    ...access('write'),
    prepare: async (t) => (o) =>
      gql(t, CreateWebhookDocument, { input: { name: `n8n: tagApplied ${unique()}`, url: 'https://hooks.example.com/tag-applied', conditions: [{ type: 'tagApplied' }] } }, o),
  },
  {
    field: 'Mutation.updateWebhook',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, UpdateWebhookDocument, { id, input: { enabled: false } }, o);
    },
  },
  {
    field: 'Mutation.deleteWebhook',
    ...access('delete'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, DeleteWebhookDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.rotateWebhookSecret',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, RotateWebhookSecretDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.retryWebhookDelivery',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      const deliveryId = String(await fixtures(t.db, ws).webhookDelivery(Number(id)));
      return (o) => gql(t, RetryWebhookDeliveryDocument, { id, deliveryId }, o);
    },
  },
  {
    field: 'Mutation.testWebhook',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, TestWebhookDocument, { id }, o);
    },
  },
  {
    field: 'Mutation.recoverWebhook',
    ...access('write'),
    prepare: async (t, ws) => {
      const id = await webhookOf(t, ws);
      return (o) => gql(t, RecoverWebhookDocument, { id, since: '2026-01-01T00:00:00Z' }, o);
    },
  },
  {
    field: 'Mutation.createExternalWebhook',
    ...access('write'),
    prepare: async (t) => (o) => gql(t, CreateExternalWebhookDocument, { input: { url: 'https://hooks.example.com/flows/order-placed', event: 'order_placed', provider: 'n8n' } }, o),
  },
  {
    field: 'Mutation.deleteExternalWebhook',
    ...access('delete'),
    prepare: async (t, ws) => {
      const id = String(await fixtures(t.db, ws).externalWebhook(`event_${unique()}`));
      return (o) => gql(t, DeleteExternalWebhookDocument, { id }, o);
    },
  },
];
