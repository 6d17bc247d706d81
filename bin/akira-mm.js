#!/usr/bin/env node
// Runs the TypeScript CLI directly through tsx, so `npx akira-mm …` works in a checkout
// without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
