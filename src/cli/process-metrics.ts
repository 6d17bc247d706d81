/**
 * The daemon's own memory in `/metrics`, read when scraped (no timer, no cost between scrapes):
 * resident set size, the V8 heap, and memory outside it (WebAssembly tables, buffers), so an
 * operator sees a leak as a slope and `npm run memory` can say where the RSS goes.
 */
import { Gauge, type Registry } from 'prom-client';

/** Registers `akira_mm_process_*_bytes` gauges on the registry. */
export function registerProcessMetrics(registry: Registry): void {
  const gauges: readonly [string, string, (usage: NodeJS.MemoryUsage) => number][] = [
    ['akira_mm_process_resident_memory_bytes', 'Resident set size of the daemon process', (usage) => usage.rss],
    ['akira_mm_process_heap_used_bytes', 'V8 heap in use (JavaScript objects)', (usage) => usage.heapUsed],
    ['akira_mm_process_heap_total_bytes', 'V8 heap reserved', (usage) => usage.heapTotal],
    ['akira_mm_process_external_memory_bytes', 'Memory V8 tracks outside its heap: WebAssembly memories (the curve tables), buffers', (usage) => usage.external],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(process.memoryUsage()));
      },
    });
  }
}
