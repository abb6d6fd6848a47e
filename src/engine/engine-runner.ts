import type { JobRunner, TaskList } from '../queue/types.js';
import type { EngineDeps } from './context.js';
import { engineTasks } from './tasks.js';
import { startEventFanOut } from './webhooks/event-fan-out.js';

/**
 * The engine's background work in one process (the server with RUN_WORKERS, `npm run worker`):
 * the job runner over the engine's task table, and beside it the fan-out that turns recorded
 * workspace events into webhook deliveries. Stopping stops the fan-out first (it enqueues), then
 * the runner.
 */
export async function startEngine(deps: EngineDeps, startRunner: (tasks: TaskList) => Promise<JobRunner>): Promise<JobRunner & { tasks: string[] }> {
  const tasks = engineTasks(deps);
  const runner = await startRunner(tasks);
  const fanOut = startEventFanOut(deps, deps.config.EVENTS_POLL_MS);
  return {
    engine: runner.engine,
    tasks: Object.keys(tasks),
    async stop() {
      await fanOut.stop();
      await runner.stop();
    },
  };
}
