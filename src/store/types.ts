// The store's records and contracts, by concern: one import for the store's own files.

export type { BaseLevel } from '../base/index.js';
export * from './url-state-machine.js';
export * from './url-vocabulary.js';
export * from './admission-records.js';
export * from './fetch-records.js';
export * from './sitemap-records.js';
export * from './archive-records.js';
export * from './run-records.js';
export * from './index-writer.js';
export * from './reader-rows.js';
export * from './index-reader.js';
