// The parts of undici the fetcher uses — the Agent (a pool of connections per
// origin), its Pool and Client, and the connector it opens sockets with — loaded
// without the rest.
// `import { Agent } from 'undici'` also loads fetch, WebSocket, the caches, cookies
// and mocks, and makes Node load its own copy of undici: most of the CLI's start-up
// work. undici 7 keeps them in these modules (a test checks they are what the
// package exports).

import type { Agent, Client, Pool, buildConnector as BuildConnector } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import ClientClass from 'undici/lib/dispatcher/client.js';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import connectorFactory from 'undici/lib/core/connect.js';

export const UndiciAgent: typeof Agent = AgentClass;
export const UndiciPool: typeof Pool = PoolClass;
export const UndiciClient: typeof Client = ClientClass;
export const buildConnector: typeof BuildConnector = connectorFactory;
