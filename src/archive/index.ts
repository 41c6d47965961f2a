export { cdxjLine, cdxTimestamp, compareCdxjLines, surtOf, writeCdxjIndex, type CdxjEntry } from './cdxj.js';
export { cdxjEntryOf, readArchivedCaptures, type ArchivedCapture } from './warc-captures.js';
export {
  DEFAULT_WARC_MAX_BYTES,
  REVISIT_IDENTICAL_PAYLOAD,
  REVISIT_SERVER_NOT_MODIFIED,
  WarcWriter,
  existingWarcSerials,
  readPayloadCaptures,
  sha256Digest,
  trimTornTail,
  warcBase,
  warcFileName,
  type PayloadCapture,
  type WarcExchange,
  type WarcRecordLocation,
  type WarcWriterOptions,
} from './warc-writer.js';
export { WACZ_VERSION, writeSeriesWacz, writeWacz, type SeriesWacz, type SeriesWaczOptions, type StaleIndex, type TornWarc, type WaczPage, type WaczSummary, type WriteWaczOptions } from './wacz.js';
