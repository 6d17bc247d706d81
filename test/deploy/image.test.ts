/**
 * The product image holds the product: its runtime stage copies bin/, src/, strategies/, config/
 * and package.json, never the fault campaigns and soak runs (tools/), the tests or the benchmarks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** What the last stage copies from the build context (`COPY --from=…` takes from a stage, not the context). */
function contextCopiesOfLastStage(text: string): string[] {
  const all = instructions(text);
  const lastFrom = all.map((line) => /^FROM\s/i.test(line)).lastIndexOf(true);
  return all
    .slice(lastFrom + 1)
    .filter((line) => /^COPY\s/i.test(line) && !/\s--from=/i.test(line))
    .map((line) => line.split(/\s+/).slice(1).filter((word) => !word.startsWith('--')))
    .flatMap((words) => words.slice(0, -1));
}

describe('the product image', () => {
  it('copies bin, src, strategies, config and package.json from the checkout, and nothing else', () => {
    const copyFromStage = instructions(dockerfile).filter((line) => /^COPY\s+--from=/i.test(line));
    expect(copyFromStage).toEqual(['COPY --from=deps /app/node_modules ./node_modules']);
    expect(contextCopiesOfLastStage(dockerfile).sort()).toEqual(['bin', 'config', 'package.json', 'src', 'strategies']);
  });

  it('would be told apart from one that copies the tooling or the whole checkout', () => {
    const withTools = dockerfile.replace('COPY src ./src', 'COPY src ./src\nCOPY tools ./tools');
    expect(contextCopiesOfLastStage(withTools)).toContain('tools');
    const wholeCheckout = dockerfile.replace('COPY src ./src', 'COPY . .');
    expect(contextCopiesOfLastStage(wholeCheckout)).toContain('.');
  });
});
