// The parts of undici the fetcher uses — the Agent (a pool of connections per
// origin), its Pool and Client, the connector it opens sockets with, and the proxy
// agent once a proxy is set — loaded without the rest.
// `import { Agent } from 'undici'` also loads fetch, WebSocket, the caches, cookies
// and mocks, and makes Node load its own copy of undici: most of the CLI's start-up
// work. undici 7 keeps them in these modules (a test checks they are what the
// package exports).

import type { Agent, Client, Dispatcher, Pool, ProxyAgent, buildConnector as BuildConnector } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import ClientClass from 'undici/lib/dispatcher/client.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import connectorFactory from 'undici/lib/core/connect.js';

export const UndiciAgent: typeof Agent = AgentClass;
export const UndiciPool: typeof Pool = PoolClass;
export const UndiciClient: typeof Client = ClientClass;
export const buildConnector: typeof BuildConnector = connectorFactory;

/** What a proxy needs, loaded on first use only: a run without a proxy never loads it. */
export interface ProxyParts {
  readonly ProxyAgent: typeof ProxyAgent;
  readonly Pool: typeof Pool;
  /**
   * `Dispatcher#connect` (a CONNECT request), which the package's entry adds to every
   * dispatcher and ProxyAgent calls on its pool to the proxy: here, added to that pool.
   */
  readonly connect: Dispatcher['connect'];
}

export async function loadProxyParts(): Promise<ProxyParts> {
  const [proxyAgent, pool, connect] = await Promise.all([
    import('undici/lib/dispatcher/proxy-agent.js'),
    import('undici/lib/dispatcher/pool.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  return { ProxyAgent: proxyAgent.default, Pool: pool.default, connect: connect.default };
}
