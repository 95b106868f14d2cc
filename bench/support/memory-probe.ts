// Loaded into the benchmarked server with `--import` (bench/support/server.ts): answers "sample" over the IPC
// channel with the process's memory and CPU time, so a benchmark can report the server's RSS and heap over
// time without a line of benchmark code in the server itself. Inert when the process has no IPC channel.
if (process.send) {
  process.on('message', (message) => {
    if (message !== 'sample') return;
    process.send?.({ memory: process.memoryUsage(), cpu: process.cpuUsage(), at: Date.now() });
  });
  // The channel must not keep the server alive on its own (it stops on SIGTERM as usual).
  process.channel?.unref();
}
