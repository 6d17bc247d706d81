#!/usr/bin/env node
// Runs the CLI from a compiled copy of the TypeScript sources (bin/compiled-sources.js: no loader
// thread, faster start, ~25 MB less RSS per daemon), or through tsx when no copy can be built, so
// `npx akira-mm …` works in a checkout without a build step either way.
import { compiledCliUrl } from './compiled-sources.js';

const compiled = await compiledCliUrl();
if (compiled === undefined) {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
} else {
  await import(compiled);
}
