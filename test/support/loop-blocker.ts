/**
 * A test hook, preloaded into a server or worker process by the watchdog test (startServer's and
 * startWorker's `preload`): SIGUSR2 blocks the event loop for LOOP_BLOCK_MS, as a runaway computation would.
 */
process.on('SIGUSR2', () => {
  const until = Date.now() + Number(process.env.LOOP_BLOCK_MS ?? 1000);
  while (Date.now() < until) {
    // Busy: nothing else runs on this thread meanwhile.
  }
});
