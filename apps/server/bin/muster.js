#!/usr/bin/env node
// Entry point of the `muster` command. The sources are TypeScript run through tsx (no build step), so
// `npx muster ...` works straight after `npm install`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
