// Starts the command line fast: runs the bundle of src/cli/main.ts (see bundle.mjs), rebuilt only
// when a source file changed.
import { pathToFileURL } from 'node:url';
import { cliBundle } from './bundle.mjs';

await import(pathToFileURL(await cliBundle()).href);
