// The SQLite store's memory of its keys: every URL key and stored spelling (form)
// with its row id, in exact hash tables (key-table.ts), plus the few facts per row
// that admission asks for on every link. The store fills it from its tables and
// keeps it in step with its own writes; it drops it after a rollback.

import { KeyTable } from './key-table.js';
import type { FormHit } from './admitter.js';

export interface FormFound extends FormHit {
  readonly formId: number;
}

export class KeyMirror {
  readonly #urls: KeyTable;
  readonly #forms: KeyTable;
  /** The last URL and form row held: rows after them are read when another writer committed. */
  lastUrlId = 0;
  lastFormId = 0;
  /**
   * By URL id: 1 if the URL was `skipped`, or of a role below `page`, when last read.
   * A URL is skipped only when it is created, and a role is only ever raised, so 0
   * means "a followed page" for sure, and 1 is checked in the table (and cleared once
   * the URL is a followed page).
   */
  #maybeSkipped: Uint8Array;
  /** By form id: the URL it spells, and 1 when it was seen as written (`string`), 0 for `syntax`. */
  #formUrl: Uint32Array;
  #formSeen: Uint8Array;

  /** Sized for the rows the tables hold now. */
  constructor(urls: number, forms: number) {
    this.#urls = new KeyTable(urls);
    this.#forms = new KeyTable(forms);
    this.#maybeSkipped = new Uint8Array(urls + 1024);
    this.#formUrl = new Uint32Array(forms + 1024);
    this.#formSeen = new Uint8Array(forms + 1024);
  }

  /** The id of the URL whose key is exactly `key`. */
  urlId(key: string): number | undefined {
    return this.#urls.get(key);
  }

  /** `isSkipped`: skipped, or of a role below `page` (see `mayBeSkipped`). */
  addUrl(key: string, id: number, isSkipped: boolean): void {
    this.#urls.add(key, id);
    this.lastUrlId = id;
    if (id >= this.#maybeSkipped.length) {
      const grown = new Uint8Array(Math.max(id + 1, this.#maybeSkipped.length * 2));
      grown.set(this.#maybeSkipped);
      this.#maybeSkipped = grown;
    }
    this.#maybeSkipped[id] = isSkipped ? 1 : 0;
  }

  /** `false` when URL `id` is surely a followed page (not skipped, role `page`); `true` when it may not be (ask the table). */
  mayBeSkipped(id: number): boolean {
    return this.#maybeSkipped[id] === 1;
  }

  /** URL `id` was found a followed page (it never stops being one). */
  notSkipped(id: number): void {
    this.#maybeSkipped[id] = 0;
  }

  findForm(text: string): FormFound | undefined {
    const formId = this.#forms.get(text);
    if (formId === undefined) return undefined;
    return { formId, urlId: this.#formUrl[formId]!, rung: this.#formSeen[formId] === 1 ? 'string' : 'syntax' };
  }

  addForm(text: string, id: number, urlId: number, isSeen: boolean): void {
    this.#forms.add(text, id);
    this.lastFormId = id;
    if (id >= this.#formUrl.length) {
      const size = Math.max(id + 1, this.#formUrl.length * 2);
      const [urls, seen] = [new Uint32Array(size), new Uint8Array(size)];
      urls.set(this.#formUrl);
      seen.set(this.#formSeen);
      [this.#formUrl, this.#formSeen] = [urls, seen];
    }
    this.#formUrl[id] = urlId;
    this.#formSeen[id] = isSeen ? 1 : 0;
  }

  /** A form known only at the syntax rung was seen as written. */
  markSeen(formId: number): void {
    this.#formSeen[formId] = 1;
  }
}
