import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * One request to a local server (cr serve on 127.0.0.1) over node:http with an agent of its
 * own. Not global fetch: on Node 24+ with NODE_USE_ENV_PROXY=1 (or --use-env-proxy), fetch
 * and http.globalAgent send through HTTP_PROXY, and loopback never goes through a proxy
 * (src/http/proxy-env.ts; docs/install.md "Proxies"). An Agent made here reads no proxy
 * variable, whatever the Node line.
 */
export interface LoopbackResponse {
  status: number;
  ok: boolean;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface LoopbackOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

export function loopbackRequest(url: string, o: LoopbackOptions = {}): Promise<LoopbackResponse> {
  const target = new URL(url);
  // A hand-written URL file may name an https server (cr local wait): the same, over TLS.
  const https = target.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: false }) : new Agent({ keepAlive: false });
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: o.method ?? 'GET', headers: o.headers, agent, timeout: o.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      const whole = new Promise<string>((done, fail) => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        res.on('error', fail);
      });
      whole.catch(() => {}); // read or not, a broken body never goes unhandled
      const status = res.statusCode ?? 0;
      resolve({
        status,
        ok: status >= 200 && status < 300,
        text: () => whole,
        json: async () => JSON.parse(await whole) as unknown,
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(o.body);
  });
}
