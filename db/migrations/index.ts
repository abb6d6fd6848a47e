import type { Migration } from 'kysely';
import * as createSchema from './2026_11_22_0001_create_schema.js';
import * as contactLookupIndexes from './2026_11_23_0001_contact_lookup_indexes.js';
import * as contactSearchIndex from './2026_11_23_0002_contact_search_index.js';
import * as workspaceScopedSearch from './2026_11_23_0003_workspace_scoped_search.js';
import * as idempotencyKeys from './2026_11_23_0004_idempotency_keys.js';
import * as workspaceScopedImageSearch from './2026_11_23_0005_workspace_scoped_image_search.js';
import * as storedSearchTokens from './2026_11_23_0006_stored_search_tokens.js';
import * as contactsApi from './2026_11_23_0007_contacts_api.js';
import * as automationsApi from './2026_11_23_0008_automations_api.js';
import * as jobQueue from './2026_11_23_0009_job_queue.js';
import * as outbox from './2026_11_23_0010_outbox.js';
import * as engine from './2026_11_23_0011_engine.js';
import * as queueWorkerHeartbeats from './2026_11_24_0012_queue_worker_heartbeats.js';
import * as jobBatches from './2026_11_24_0013_job_batches.js';
import * as eventsOut from './2026_11_27_0014_events_out.js';
import * as dynamicImageRenders from './2026_11_27_0015_dynamic_image_renders.js';
import * as contactTransfers from './2026_11_27_0016_contact_transfers.js';
import * as sequencesFlows from './2026_11_27_0017_sequences_flows.js';
import * as workspaceRowCounts from './2026_11_28_0018_workspace_row_counts.js';

/**
 * Every migration, by name, in order. Listed statically (instead of read from the folder at run
 * time) so the same list works under tsx, vitest and compiled output alike. Add new files here.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_22_0001_create_schema': createSchema,
  '2026_11_23_0001_contact_lookup_indexes': contactLookupIndexes,
  '2026_11_23_0002_contact_search_index': contactSearchIndex,
  '2026_11_23_0003_workspace_scoped_search': workspaceScopedSearch,
  '2026_11_23_0004_idempotency_keys': idempotencyKeys,
  '2026_11_23_0005_workspace_scoped_image_search': workspaceScopedImageSearch,
  '2026_11_23_0006_stored_search_tokens': storedSearchTokens,
  '2026_11_23_0007_contacts_api': contactsApi,
  '2026_11_23_0008_automations_api': automationsApi,
  '2026_11_23_0009_job_queue': jobQueue,
  '2026_11_23_0010_outbox': outbox,
  '2026_11_23_0011_engine': engine,
  '2026_11_24_0012_queue_worker_heartbeats': queueWorkerHeartbeats,
  '2026_11_24_0013_job_batches': jobBatches,
  '2026_11_27_0014_events_out': eventsOut,
  '2026_11_27_0015_dynamic_image_renders': dynamicImageRenders,
  '2026_11_27_0016_contact_transfers': contactTransfers,
  '2026_11_27_0017_sequences_flows': sequencesFlows,
  '2026_11_28_0018_workspace_row_counts': workspaceRowCounts,
};
