import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createApp, createOperations, knownRoutes } from '../../src/server/transport/fetch-handler.js';
import { openStore } from '../../src/server/store/open-store.js';
import { answeringLater } from '../store/async-store.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { endpointList } from '../../src/api/endpoints.js';
import { FIXTURE, IDS, KEYS, NOW } from './helpers.js';

const load = async () => openStore({ memory: JSON.parse(await readFile(FIXTURE, 'utf8')) });

describe('invoke: the pipeline shared by REST and MCP', () => {
  it('takes parsed bodies and typed query values, and applies the same checks', async () => {
    const operations = createOperations({ store: await load(), clock: fixedClock(NOW), limits: { rateLimit: 3 } });
    const auth = { authorization: `Bearer ${KEYS.editorW1}` };
    const ok = await operations.invoke('listNurtureSequences', { headers: auth, query: { limit: 2, offset: '1' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, data: { limit: 2, offset: 1, total: 5 } });
    expect(ok.keyId).toBe(IDS.keyEditorW1);
    const bad = await operations.invoke('scheduleSocialPost', { headers: auth, params: { id: IDS.postDraft }, body: { scheduled_at: '2020-01-01T00:00:00Z' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'scheduled_at' })]);
    const created = await operations.invoke('createAdCreative', { headers: auth, body: { ad_format: 'video', name: 'n', destination_url: 'https://x.example/' } });
    expect(created.status).toBe(200);
    const limited = await operations.invoke('listCrmAgents', { headers: auth });
    expect(limited.status).toBe(429);
    expect(limited.headers['Retry-After']).toBe('3600');
    const noKey = await operations.invoke('listCrmAgents', {});
    expect(noKey.status).toBe(401);
  });

  it('gives the same answers over a store that answers with promises (as a database does)', async () => {
    const now = { clock: fixedClock(NOW), limits: { rateLimit: 3 } };
    const later = createOperations({ store: answeringLater(await load()), ...now });
    const atOnce = createOperations({ store: await load(), ...now });
    const calls: [Parameters<typeof later.invoke>[0], Parameters<typeof later.invoke>[1]][] = [
      ['getFinanceSummary', { headers: { authorization: `Bearer ${KEYS.editorW1}` } }],
      ['listLearnings', { headers: { authorization: `Bearer ${KEYS.editorAgency}` }, query: { limit: 2 } }],
      ['listCrmAgents', { headers: { authorization: `Bearer ${KEYS.editorAgency}` }, query: { website_id: IDS.W2 } }],
      ['listCrmAgents', { headers: { authorization: `Bearer ${KEYS.editorW3}` }, query: { website_id: IDS.W1 } }],
      ['scheduleSocialPost', { headers: { authorization: `Bearer ${KEYS.editorW1}` }, params: { id: IDS.unknownPost }, body: { scheduled_at: '2030-01-01T00:00:00Z' } }],
      ['listCrmAgents', { headers: { authorization: `Bearer ${KEYS.revoked}` } }],
      ['listCrmAgents', { headers: { authorization: `Bearer ${KEYS.editorW1}` } }],
      ['listCrmAgents', { headers: { authorization: `Bearer ${KEYS.editorW1}` } }],
    ];
    const statuses: number[] = [];
    for (const [op, req] of calls) {
      const [a, b] = [await later.invoke(op, req), await atOnce.invoke(op, req)];
      expect(a.body, op).toEqual(b.body);
      expect(a.status, op).toBe(b.status);
      statuses.push(a.status);
    }
    expect(statuses).toEqual([200, 400, 200, 403, 404, 401, 200, 429]);
  });

  it('website_id is accepted in the query of a body endpoint, and must agree with the body', async () => {
    const app = createApp({ store: await load(), clock: fixedClock(NOW) });
    const post = (q: string, body: object) =>
      app.request(`http://127.0.0.1/api/v1/content/ads/creatives/create${q}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.editorAgency}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ad_format: 'video', name: 'n', destination_url: 'https://x.example/', ...body }),
      });
    expect((await post(`?website_id=${IDS.W2}`, {})).status).toBe(200);
    const differ = await post(`?website_id=${IDS.W2}`, { website_id: IDS.W1 });
    expect(differ.status).toBe(400);
    expect(((await differ.json()) as { details: { path: string }[] }).details[0]!.path).toBe('website_id');
    expect((await post(`?website_id=${IDS.W3}`, {})).status).toBe(403);
  });

  it('knownRoutes lists every endpoint of the table with its method', () => {
    expect(knownRoutes.size).toBe(endpointList.length);
    expect(knownRoutes.get('/api/v1/social/posts/:id/schedule')).toEqual(new Set(['POST']));
  });
});

describe('docs/store-format.md', () => {
  it('links, as its complete example, the fixture these tests load as a store', async () => {
    const docUrl = new URL('../../docs/store-format.md', import.meta.url);
    const doc = await readFile(fileURLToPath(docUrl), 'utf8');
    const example = doc.slice(doc.indexOf('## Complete example'));
    const target = /\]\(([^)]+\.json)\)/.exec(example)?.[1];
    expect(target && fileURLToPath(new URL(target, docUrl))).toBe(FIXTURE);
    // What the page says of it: the Acme keys see Acme Studio at an MRR of 20833 cents, and four invoice alerts, one overdue.
    const operations = createOperations({ store: await load(), clock: fixedClock(NOW), limits: { rateLimit: 10 } });
    const r = await operations.invoke('getFinanceSummary', { headers: { authorization: `Bearer ${KEYS.adminW1}` } });
    expect(example).toContain('MRR of 208.33');
    const data = (r.body as { data: { summaries: { entity: { name: string }; activeMrr: number }[]; invoiceAlerts: { isOverdue: boolean }[] } }).data;
    expect(data.summaries.find((s) => s.entity.name === 'Acme Studio')?.activeMrr).toBe(20833);
    expect(data.invoiceAlerts.map((a) => a.isOverdue).sort()).toEqual([false, false, false, true]);
  });
});
