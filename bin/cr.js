#!/usr/bin/env node
import { main } from '../dist/bundle/cr.js';

await main();
