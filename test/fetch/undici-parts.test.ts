import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { UndiciAgent, UndiciClient, UndiciPool, buildConnector, loadProxyParts } from '../../src/fetch/undici-parts.js';

describe('the parts of undici loaded by path', () => {
  it("are undici's own Agent and buildConnector", () => {
    expect(UndiciAgent).toBe(undici.Agent);
    expect(UndiciPool).toBe(undici.Pool);
    expect(UndiciClient).toBe(undici.Client);
    expect(buildConnector).toBe(undici.buildConnector);
  });

  it("and, loaded on first use, its ProxyAgent, Pool and Dispatcher#connect", async () => {
    const parts = await loadProxyParts();
    expect(parts.ProxyAgent).toBe(undici.ProxyAgent);
    expect(parts.Pool).toBe(undici.Pool);
    expect(parts.connect).toBe(undici.Dispatcher.prototype.connect);
  });
});
