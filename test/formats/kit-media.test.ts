/**
 * The format kit's media helpers (src/formats/kit/media.ts): the one data URL parser every
 * adapter uses, what an adapter may store as v1 data, base64 of text, media types by name.
 */
import { describe, expect, it } from 'vitest';
import {
  base64ToText,
  guessMediaType,
  parseDataUrl,
  splitDataUrl,
  textToBase64,
  toDataUrl,
} from '../../src/formats/kit/media.js';

describe('parseDataUrl', () => {
  it.each([
    [
      'data:image/png;base64,iVBO',
      { mediaType: 'image/png', parameters: '', data: 'iVBO', canonical: true },
    ],
    [
      'data:application/pdf;name=a.pdf;base64,JVBE',
      { mediaType: 'application/pdf', parameters: ';name=a.pdf', data: 'JVBE', canonical: true },
    ],
    [
      'DATA:Image/PNG;BASE64,iVBO',
      { mediaType: 'Image/PNG', parameters: '', data: 'iVBO', canonical: false },
    ],
    [
      'data:text/plain;base64,a,b\nc',
      { mediaType: 'text/plain', parameters: '', data: 'a,b\nc', canonical: true },
    ],
  ])('%s', (url, parts) => {
    expect(parseDataUrl(url)).toEqual(parts);
  });

  it.each([
    'data:text/plain,hello', // not base64
    'data:;base64,AAAA', // no media type
    'data:image/png;charset;base64,AAAA', // a parameter without a value
    'https://example.com/data:image/png;base64,AAAA',
    ' data:image/png;base64,AAAA',
  ])('%s is no base64 data URL', (url) => {
    expect(parseDataUrl(url)).toBeUndefined();
  });
});

describe('splitDataUrl: only what toDataUrl writes back byte for byte', () => {
  it('splits the canonical form, and toDataUrl gives it back', () => {
    const url = 'data:image/webp;base64,UklGR';
    const split = splitDataUrl(url)!;
    expect(split).toEqual({ mediaType: 'image/webp', data: 'UklGR' });
    expect(toDataUrl(split.mediaType, split.data)).toBe(url);
  });

  it.each([
    'DATA:image/png;base64,AA',
    'data:image/png;BASE64,AA',
    'data:image/png;name=x;base64,AA',
  ])('%s stays a URL', (url) => {
    expect(splitDataUrl(url)).toBeUndefined();
  });
});

describe('base64 of text', () => {
  it('round-trips UTF-8 text and refuses what is not text or would not come back', () => {
    const b64 = textToBase64('héllo ✓')!;
    expect(base64ToText(b64)).toBe('héllo ✓');
    expect(textToBase64('\ud800')).toBeUndefined();
    expect(base64ToText('/w==')).toBeUndefined(); // 0xFF: not UTF-8
    expect(base64ToText('not base64!')).toBeUndefined();
  });
});

describe('guessMediaType', () => {
  it('takes the first name with a known extension, ignoring query and fragment', () => {
    expect(guessMediaType('report.PDF', 'https://x/y.png')).toBe('application/pdf');
    expect(guessMediaType(undefined, 'https://x/a.docx?sig=1#p')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(guessMediaType('notes', 'https://example.com/file')).toBe('application/octet-stream');
  });
});
