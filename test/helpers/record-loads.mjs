// Preloaded with `node --import ./test/helpers/record-loads.mjs bin/cr.js ...`: registers
// a module resolve hook that appends every resolved URL to the file named by CR_LOAD_LOG.
import { register } from 'node:module';

register('./record-loads-hooks.mjs', import.meta.url, { data: { log: process.env.CR_LOAD_LOG } });
