import { describe, expect, it } from 'vitest';
import {
  decodeHtml,
  extractCharsetFromMeta,
  getEncoding,
  prescanForMetaCharset,
  sniffEncoding,
} from '../../src/fetch/index.js';

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');

describe('getEncoding (WHATWG Encoding labels)', () => {
  it.each([
    ['utf-8', 'utf-8'],
    [' UTF8 ', 'utf-8'],
    ['latin1', 'windows-1252'],
    ['ISO-8859-1', 'windows-1252'],
    ['us-ascii', 'windows-1252'],
    ['Shift_JIS', 'shift_jis'],
    ['sjis', 'shift_jis'],
    ['euc-jp', 'euc-jp'],
    ['gb2312', 'gbk'],
    ['koi8-r', 'koi8-r'],
    ['utf-16', 'utf-16le'],
  ])('%s → %s', (label, encoding) => {
    expect(getEncoding(label)).toBe(encoding);
  });

  it.each(['', 'no-such-charset', 'utf-7', 'x-user-defined-ish'])('%j names no encoding', (label) => {
    expect(getEncoding(label)).toBeUndefined();
  });
});

describe('prescanForMetaCharset (HTML §13.2.3.2)', () => {
  it.each([
    ['<meta charset="windows-1252">', 'windows-1252'],
    ["<META CHARSET='Shift_JIS'>", 'shift_jis'],
    ['<meta charset=euc-kr>', 'euc-kr'],
    ['<meta/charset=koi8-r>', 'koi8-r'],
    ['<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">', 'iso-8859-2'],
    ['<meta content="text/html; charset=iso-8859-2" http-equiv=content-type>', 'iso-8859-2'],
    ['<meta charset="utf-16le">', 'utf-8'],
    ['<meta charset="x-user-defined">', 'windows-1252'],
    ['<meta name="x" content="charset=koi8-r"><meta charset="euc-jp">', 'euc-jp'],
    ['<!-- <meta charset="koi8-r"> --><meta charset="euc-jp">', 'euc-jp'],
    ['<!--> <meta charset="koi8-r">', 'koi8-r'],
    ['<div title="<meta charset=koi8-r>"><meta charset="euc-jp">', 'euc-jp'],
    ['<?xml version="1.0"?><meta charset="euc-jp">', 'euc-jp'],
    ['<meta charset="no-such"><meta charset="euc-jp">', 'euc-jp'],
    ['<meta charset="euc-jp" charset="koi8-r">', 'euc-jp'],
    // Cut by the 1024-byte window after a complete attribute: taken.
    ['<meta charset="koi8-r"', 'koi8-r'],
  ])('%s → %s', (html, encoding) => {
    expect(prescanForMetaCharset(ascii(html))).toBe(encoding);
  });

  it.each([
    '<meta content="text/html; charset=koi8-r">',
    '<meta http-equiv="content-type">',
    '<metacharset="koi8-r">',
    '<!-- <meta charset="koi8-r">',
    '<p>no meta at all</p>',
    '',
  ])('%s → none', (html) => {
    expect(prescanForMetaCharset(ascii(html))).toBeUndefined();
  });
});

describe('extractCharsetFromMeta (HTML §2.4)', () => {
  it.each([
    ['text/html; charset=utf-8', 'utf-8'],
    ['text/html;charset = "koi8-r" ', 'koi8-r'],
    ["text/html; charset='euc-jp'", 'euc-jp'],
    ['text/html; CHARSET=shift_jis; x=y', 'shift_jis'],
    ['charsetcharset=a', 'a'],
  ])('%s → %s', (content, label) => {
    expect(extractCharsetFromMeta(content)).toBe(label);
  });

  it.each(['text/html', 'text/html; charset=', 'text/html; charset="utf-8', 'charset'])('%s → none', (content) => {
    expect(extractCharsetFromMeta(content)).toBeUndefined();
  });
});

describe('sniffEncoding: BOM, then header, then <meta>, then UTF-8', () => {
  it('says where the encoding came from', () => {
    expect(sniffEncoding(Uint8Array.of(0xfe, 0xff, 0, 0x41), 'utf-8')).toEqual({ encoding: 'utf-16be', source: 'bom' });
    expect(sniffEncoding(ascii('<meta charset=koi8-r>'), 'euc-jp')).toEqual({ encoding: 'euc-jp', source: 'header' });
    expect(sniffEncoding(ascii('<meta charset=koi8-r>'), 'bogus')).toEqual({ encoding: 'koi8-r', source: 'meta' });
    expect(sniffEncoding(ascii('<p>'), undefined)).toEqual({ encoding: 'utf-8', source: 'default' });
  });
});

describe('decodeHtml with bytes', () => {
  it('windows-1252 0x80–0x9F are the Encoding Standard’s characters (Node 20 gets them wrong)', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    expect(decodeHtml(bytes, 'windows-1252').text).toBe(
      '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ',
    );
    expect(decodeHtml(Uint8Array.of(0xa0, 0xe9, 0xff), 'latin1')).toEqual({
      text: '\u00a0éÿ',
      charset: 'windows-1252',
      source: 'header',
    });
  });

  it('shift_jis, euc-kr, koi8-r, big5', () => {
    expect(decodeHtml(Uint8Array.of(0x93, 0xfa, 0x96, 0x7b), 'shift_jis').text).toBe('日本');
    expect(decodeHtml(Uint8Array.of(0xc7, 0xd1), 'euc-kr').text).toBe('한');
    expect(decodeHtml(Uint8Array.of(0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4), 'koi8-r').text).toBe('Привет');
    expect(decodeHtml(Uint8Array.of(0xa4, 0xa4), 'big5').text).toBe('中');
  });

  it('UTF-16 with BOMs', () => {
    expect(decodeHtml(Uint8Array.of(0xff, 0xfe, 0x41, 0, 0xe9, 0), undefined)).toMatchObject({ text: 'Aé', charset: 'utf-16le' });
    expect(decodeHtml(Uint8Array.of(0xfe, 0xff, 0, 0x41, 0, 0xe9), 'windows-1252')).toMatchObject({ text: 'Aé', charset: 'utf-16be' });
  });
});
