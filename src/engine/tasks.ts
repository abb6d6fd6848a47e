import type { TaskList } from '../queue/types.js';
import type { EngineDeps } from './context.js';
import { processEventTask, type EventProcessor } from './process-event.js';
import type { ChannelEventKind } from '../domain/events/channel-event.schema.js';
import { PROCESS_EVENT_TASK } from '../domain/events/channel-event.service.js';
import { commentActionTasks } from './comments/comment-actions.js';
import { processCommentEvent } from './comments/comment-engine.js';
import { processHandoverEvent, processMessageEvent, processPostbackEvent, processReadEvent, processStandbyEvent } from './messaging/messaging-events.js';
import { LEAD_REPLY_TASK, processLead, sendLeadReply } from './leads/lead.processor.js';
import { DELIVER_TASK } from '../domain/webhooks/webhook.service.js';
import { deliverWebhook } from './webhooks/webhook-delivery.js';
import { BAKE_TASK } from '../domain/dynamic-images/dynamic-image.service.js';
import { bakeStaticLayer } from '../domain/dynamic-images/dynamic-image-render.service.js';
import { IMPORT_TASK } from '../domain/contact-transfers/contact-import.service.js';
import { runImport } from '../domain/contact-transfers/contact-import.job.js';
import { EXPORT_TASK, expireContactFile, runExport } from '../domain/contact-transfers/contact-export.service.js';
import { EXPIRE_FILE_TASK } from '../domain/contact-transfers/contact-file.service.js';
import { SEQUENCE_STEP_TASK, type StepItem } from '../domain/sequences/sequence-progress.service.js';
import { runSequenceSteps } from './sequences/sequence-runner.js';
import { FLOW_RUN_TASK } from '../domain/flows/flow-send.service.js';
import { sendFlowRun } from './flows/flow-run.job.js';
import { EXTERNAL_EVENT_TASK, type ExternalEventPayload } from '../domain/flows/flow-events.service.js';
import { deliverExternalEvent } from './flows/external-event-delivery.js';

/** Each kind of stored event and the processor that acts on it. */
const processors: Partial<Record<ChannelEventKind, EventProcessor>> = {
  comment: processCommentEvent,
  lead: processLead,
  message: processMessageEvent,
  read: processReadEvent,
  postback: processPostbackEvent,
  handover: processHandoverEvent,
  standby: processStandbyEvent,
};

/**
 * The app's task table: job name -> handler, run by the server's workers and `npm run worker`.
 * A job whose task is not listed is left waiting, untouched.
 */
export function engineTasks(deps: EngineDeps): TaskList {
  const processEvent = processEventTask(processors);
  return {
    [PROCESS_EVENT_TASK]: (payload, helpers) => processEvent(deps, payload, helpers),
    ...commentActionTasks(deps),
    [LEAD_REPLY_TASK]: (payload, helpers) => sendLeadReply(deps, payload, helpers),
    [DELIVER_TASK]: (payload) => deliverWebhook(deps, payload),
    [BAKE_TASK]: (payload) => {
      const { workspaceId, imageId } = payload as { workspaceId: number; imageId: number };
      return bakeStaticLayer(deps.db, deps.images, workspaceId, imageId);
    },
    [IMPORT_TASK]: (payload, { job, signal }) => {
      const { workspaceId, importId } = payload as { workspaceId: number; importId: number };
      return runImport({ db: deps.db, files: deps.files, logger: deps.logger }, workspaceId, importId, { attempt: job.attempt, maxAttempts: job.maxAttempts, signal });
    },
    [EXPORT_TASK]: (payload, { job }) => {
      const { workspaceId, fileId } = payload as { workspaceId: number; fileId: number };
      return runExport(deps.db, deps.files, workspaceId, fileId, job);
    },
    [EXPIRE_FILE_TASK]: (payload) => expireContactFile(deps.db, deps.files, (payload as { fileId: number }).fileId),
    [SEQUENCE_STEP_TASK]: (payload) => runSequenceSteps(deps, payload as unknown as StepItem[]),
    [FLOW_RUN_TASK]: (payload) => sendFlowRun(deps, payload as { workspaceId: number; flowRunId: number }),
    [EXTERNAL_EVENT_TASK]: (payload) => deliverExternalEvent(deps, payload as unknown as ExternalEventPayload),
  };
}
