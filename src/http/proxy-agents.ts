import type { Agent, AgentOptions } from 'node:http';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';

/**
 * The connection pool for requests through a proxy (src/http/proxy-env.ts decides which):
 * an https URL through a CONNECT tunnel (https-proxy-agent), an http one forwarded by the
 * proxy with the absolute URL (http-proxy-agent); credentials in the proxy URL go as
 * Proxy-Authorization: Basic. Loaded only when a proxy variable is set.
 */
export function proxyAgent(protocol: string, proxy: URL, options: AgentOptions): Agent {
  return protocol === 'https:' ? new HttpsProxyAgent(proxy, options) : new HttpProxyAgent(proxy, options);
}
