import type { TaskList } from './types.js';

/**
 * The app's task table: job name -> handler, run by the server's workers and `npm run worker`.
 * The automation engine adds its jobs here (process an event, send a delayed reply, unhide a
 * comment, retry a failed call). A job whose task is not listed is left waiting, untouched.
 */
export const appTasks: TaskList = {};
