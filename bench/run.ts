/**
 * `npm run bench [-- --json] [-- --filter REGEX]`: runs every suite found in `bench/**\/*.bench.ts`.
 * With --json, prints one JSON object per line and nothing else on stdout.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { round3, type BenchResult, type BenchSuite } from './harness.ts';

function findBenchFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findBenchFiles(path));
    else if (entry.name.endsWith('.bench.ts')) found.push(path);
  }
  return found.sort();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { json: { type: 'boolean' }, filter: { type: 'string' } },
  });
  const filter = values.filter === undefined ? undefined : new RegExp(values.filter);
  const benchDir = fileURLToPath(new URL('.', import.meta.url));
  const results: BenchResult[] = [];
  for (const file of findBenchFiles(benchDir)) {
    const module = (await import(pathToFileURL(file).href)) as { benches?: BenchSuite[] };
    for (const suite of module.benches ?? []) {
      if (filter !== undefined && !filter.test(suite.name)) continue;
      if (values.json !== true) process.stderr.write(`running ${suite.name} (${relative(benchDir, file)})…\n`);
      for (const result of await suite.run()) {
        const line: BenchResult = {
          bench: result.bench,
          value: round3(result.value),
          unit: result.unit,
          baseline: result.baseline === null ? null : round3(result.baseline),
        };
        results.push(line);
        if (values.json === true) process.stdout.write(JSON.stringify(line) + '\n');
        else {
          const vs = line.baseline === null ? '' : `  (baseline ${line.baseline}, ×${round3(line.value / line.baseline)})`;
          process.stdout.write(`${line.bench.padEnd(28)} ${String(line.value).padStart(12)} ${line.unit}${vs}\n`);
        }
      }
    }
  }
  if (results.length === 0) process.stderr.write('no benchmark matched\n');
}

await main();
// Worker pools or sockets left by a suite must not keep the runner alive.
process.exit(0);
