import { commentOperationsOf } from '../../domain/comment-automations/comment-automation.operations.js';
import { channelSchema, type Channel } from '../../domain/comment-automations/comment-automation.schema.js';
import { del, get, patch, post } from '../route.js';

type Created = { id: string };

/** A channel's comment automations: the same operations on every network, under its own path. */
const channelRoutes = (channel: Channel) => {
  const ops = commentOperationsOf[channel];
  const path = `/v1/${channel}-comments`;
  return [
    get(path, ops.list),
    post(path, ops.create, { status: 201, location: (a: Created) => `${path}/${a.id}` }),
    patch(`${path}/{id}`, ops.update),
    del(`${path}/{id}`, ops.delete),
    get(`${path}/{id}`, ops.get),
  ];
};

const [photoRoutes, netRoutes] = channelSchema.options.map(channelRoutes);

// Operation by operation, photo then net: the OpenAPI document lists the paths in this order.
export const commentAutomationRoutes = photoRoutes.flatMap((route, i) => [route, netRoutes[i]]);
