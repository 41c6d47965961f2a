import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { UndiciAgent, buildConnector } from '../../src/fetch/undici-parts.js';

describe('the parts of undici loaded by path', () => {
  it("are undici's own Agent and buildConnector", () => {
    expect(UndiciAgent).toBe(undici.Agent);
    expect(buildConnector).toBe(undici.buildConnector);
  });
});
