import type { Config } from '../config/config.js';
import type { Executor } from '../db/database.js';
import type { ChannelAdapter } from '../domain/channels/channel-adapter.js';
import { graphApiAdapter } from './graph-api.adapter.js';
import { sandboxAdapter } from './sandbox.adapter.js';

export type ChannelAdapterConfig = Pick<Config, 'CHANNEL_ADAPTER' | 'GRAPH_API_BASE_URL' | 'GRAPH_API_ACCESS_TOKEN' | 'GRAPH_API_TIMEOUT_MS'> &
  Partial<Pick<Config, 'CHANNEL_APP_ID' | 'HANDOVER_TARGET_APP_ID'>>;

/**
 * The adapter configuration chooses (CHANNEL_ADAPTER): `sandbox` (the default) records in the
 * outbox of the given database; `http` calls the Graph API at GRAPH_API_BASE_URL with
 * GRAPH_API_ACCESS_TOKEN for every inbox (config.ts refuses `http` without both).
 */
export function createChannelAdapter(config: ChannelAdapterConfig, db: Executor): ChannelAdapter {
  const apps = { appId: config.CHANNEL_APP_ID, handoverAppId: config.HANDOVER_TARGET_APP_ID };
  if (config.CHANNEL_ADAPTER === 'sandbox') return sandboxAdapter(db, apps);
  const token = config.GRAPH_API_ACCESS_TOKEN;
  if (!config.GRAPH_API_BASE_URL || !token) throw new Error('CHANNEL_ADAPTER=http needs GRAPH_API_BASE_URL and GRAPH_API_ACCESS_TOKEN');
  return graphApiAdapter({ baseUrl: config.GRAPH_API_BASE_URL, accessToken: () => token, timeoutMs: config.GRAPH_API_TIMEOUT_MS, ...apps });
}
