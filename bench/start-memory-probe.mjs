// Preloaded (--import) into every process of the tree by bench/start-memory.ts: on SIGUSR2 writes
// where the process's memory goes to $BENCH_PROBE_DIR/<pid>.json. Plain JavaScript, so it loads
// under plain node as under tsx; it adds one signal listener and nothing else until asked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';

const dir = process.env.BENCH_PROBE_DIR;
if (dir)
  process.on('SIGUSR2', () => {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ usage, spaces }));
  });
