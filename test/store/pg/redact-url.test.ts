// Messages name a PostgreSQL index by its URL without its password, wherever the URL holds one.

import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/store/index.js';

describe('redactUrl', () => {
  it.each([
    ['postgres://u:s3cret@h:5432/db', 'postgres://u:***@h:5432/db'],
    ['postgres://:s3cret@/db', 'postgres://:***@/db'],
    ['postgres://u:s3c@ret@h/db', 'postgres://u:***@h/db'],
    ['postgres://u@h/db?password=s3cret&sslmode=disable', 'postgres://u@h/db?password=***&sslmode=disable'],
    ['postgresql://h/db?sslmode=require&sslpassword=s3cret#x', 'postgresql://h/db?sslmode=require&sslpassword=***#x'],
    ['POSTGRES://u:s3cret@h/db?PASSWORD=s3cret', 'POSTGRES://u:***@h/db?PASSWORD=***'],
    ['postgres://u@h/db', 'postgres://u@h/db'],
    ['postgres://u@h/a:b@c', 'postgres://u@h/a:b@c'],
    ['data/linkladder.db', 'data/linkladder.db'],
  ])('%s', (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});
