import { makeKey, tempDir, writeConfig } from './tmp.js';

export const KEY = makeKey('1a2b', '9f0e', 'c');
export const MASK = 'cr_1a2b…9f0e';

/** A config folder with three profiles: prod (active, with a key), staging (a key), empty (no key). */
export function profilesConfig(): string {
  const configDir = tempDir();
  writeConfig(configDir, {
    activeProfile: 'prod',
    profiles: {
      prod: { baseUrl: 'http://prod.example/api/v1', apiKey: KEY },
      staging: { baseUrl: 'http://staging.example/api/v1', apiKey: makeKey('5555', '6666', 'e') },
      empty: { baseUrl: 'http://empty.example/api/v1' },
    },
  });
  return configDir;
}
