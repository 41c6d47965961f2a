// The two parts of undici the fetcher uses — the Agent (a pool of connections per
// origin) and the connector it opens sockets with — loaded without the rest.
// `import { Agent } from 'undici'` also loads fetch, WebSocket, the caches, cookies
// and mocks, and makes Node load its own copy of undici: most of the CLI's start-up
// work. undici 7 keeps them in these modules (a test checks they are what the
// package exports).

import type { Agent, buildConnector as BuildConnector } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import connectorFactory from 'undici/lib/core/connect.js';

export const UndiciAgent: typeof Agent = AgentClass;
export const buildConnector: typeof BuildConnector = connectorFactory;
