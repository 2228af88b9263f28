import { describe, expect, it } from 'vitest';
import { safeJsonParse } from '../../src/server/json.js';

describe('safeJsonParse', () => {
  const spellings = ['{"__proto__": {"polluted": 1}}', '{"\\u005f_proto__": {"polluted": 1}}', '{"__pr\\u006fto__": {"polluted": 1}}', '{"a": [{"b": {"__proto__": {"polluted": 1}}}]}'];
  for (const text of spellings) {
    it(`drops __proto__ spelled as ${text}`, () => {
      const value = safeJsonParse(text) as Record<string, unknown>;
      expect(JSON.stringify(value)).not.toContain('polluted');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    });
  }

  it('parses ordinary JSON exactly, escapes included', () => {
    const text = '{"name":"caf\\u00e9 ☕","n":[1,2.5,null,true],"nested":{"k":"v"}}';
    expect(safeJsonParse(text)).toEqual(JSON.parse(text));
  });
});
