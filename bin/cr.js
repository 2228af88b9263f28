#!/usr/bin/env node
require('../dist/bundle/launch.cjs').launch();
