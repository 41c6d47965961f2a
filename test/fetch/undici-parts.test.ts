import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { UndiciAgent, UndiciClient, UndiciPool, buildConnector } from '../../src/fetch/undici-parts.js';

describe('the parts of undici loaded by path', () => {
  it("are undici's own Agent and buildConnector", () => {
    expect(UndiciAgent).toBe(undici.Agent);
    expect(UndiciPool).toBe(undici.Pool);
    expect(UndiciClient).toBe(undici.Client);
    expect(buildConnector).toBe(undici.buildConnector);
  });
});
