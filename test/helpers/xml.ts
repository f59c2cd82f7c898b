/**
 * A minimal, strict XML 1.0 parser for tests: it accepts only well-formed
 * documents (one root, balanced tags, quoted unique attributes, known
 * entities, characters XML 1.0 allows) and throws on anything else.
 */

/** An element: its name, attributes (entities decoded) and children. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

/** A child node: an element or decoded text. */
export type XmlNode = XmlElement | string;

const NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;
const SPACE = /[ \t\r\n]*/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Whether a code point is an XML 1.0 `Char`. */
export function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function fail(text: string, at: number, why: string): never {
  throw new Error(
    `not well-formed XML at offset ${at}: ${why} near ${JSON.stringify(text.slice(at, at + 40))}`,
  );
}

/** Decodes entity and character references, refusing a bare `&` and a raw `<`. */
function decode(raw: string, text: string, at: number): string {
  if (raw.includes('<')) fail(text, at, 'raw "<" in text or attribute');
  return raw.replace(/&([^;&]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) fail(text, at, `bare "&" (${whole})`);
    if (body in ENTITIES) return ENTITIES[body]!;
    const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
    if (m === null) fail(text, at, `unknown entity &${body};`);
    const cp = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2]!, 10);
    if (!isXmlChar(cp)) fail(text, at, `character reference to a forbidden character &${body};`);
    return String.fromCodePoint(cp);
  });
}

/** Parses a whole document; returns its root element. */
export function parseXml(text: string): XmlElement {
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    if (!isXmlChar(cp)) fail(text, i, `forbidden character U+${cp.toString(16).toUpperCase()}`);
    i += cp > 0xffff ? 2 : 1;
  }
  let pos = 0;
  const skipSpace = (): void => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    pos = SPACE.lastIndex;
  };
  const name = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (m === null) fail(text, pos, 'expected a name');
    pos = NAME.lastIndex;
    return m[0];
  };
  const skipMisc = (): void => {
    for (;;) {
      skipSpace();
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end === -1) fail(text, pos, 'unterminated comment');
        pos = end + 3;
      } else if (text.startsWith('<?', pos) && !text.startsWith('<?xml', pos)) {
        const end = text.indexOf('?>', pos);
        if (end === -1) fail(text, pos, 'unterminated processing instruction');
        pos = end + 2;
      } else return;
    }
  };

  const element = (): XmlElement => {
    if (text[pos] !== '<') fail(text, pos, 'expected "<"');
    pos++;
    const tag = name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = pos;
      skipSpace();
      if (text.startsWith('/>', pos)) {
        pos += 2;
        return { name: tag, attributes, children: [] };
      }
      if (text[pos] === '>') {
        pos++;
        break;
      }
      if (pos === before) fail(text, pos, 'expected whitespace before an attribute');
      const attr = name();
      skipSpace();
      if (text[pos] !== '=') fail(text, pos, 'expected "="');
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(text, pos, 'expected a quoted attribute value');
      const end = text.indexOf(quote, pos + 1);
      if (end === -1) fail(text, pos, 'unterminated attribute value');
      if (Object.prototype.hasOwnProperty.call(attributes, attr))
        fail(text, pos, `duplicate attribute ${attr}`);
      attributes[attr] = decode(text.slice(pos + 1, end), text, pos);
      pos = end + 1;
    }
    const children: XmlNode[] = [];
    for (;;) {
      if (pos >= text.length) fail(text, pos, `unclosed <${tag}>`);
      if (text.startsWith('</', pos)) {
        pos += 2;
        const closing = name();
        if (closing !== tag) fail(text, pos, `</${closing}> closes <${tag}>`);
        skipSpace();
        if (text[pos] !== '>') fail(text, pos, 'expected ">"');
        pos++;
        return { name: tag, attributes, children };
      }
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end === -1) fail(text, pos, 'unterminated comment');
        pos = end + 3;
      } else if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos);
        if (end === -1) fail(text, pos, 'unterminated CDATA');
        children.push(text.slice(pos + 9, end));
        pos = end + 3;
      } else if (text[pos] === '<') {
        children.push(element());
      } else {
        const next = text.indexOf('<', pos);
        const end = next === -1 ? text.length : next;
        const raw = text.slice(pos, end);
        if (raw.includes(']]>')) fail(text, pos, '"]]>" in text');
        children.push(decode(raw, text, pos));
        pos = end;
      }
    }
  };

  if (text.startsWith('<?xml', pos)) {
    const end = text.indexOf('?>', pos);
    if (end === -1) fail(text, pos, 'unterminated XML declaration');
    pos = end + 2;
  }
  skipMisc();
  const root = element();
  skipMisc();
  if (pos !== text.length) fail(text, pos, 'content after the root element');
  return root;
}

/** The child elements of an element, optionally only those with a name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (c): c is XmlElement => typeof c !== 'string' && (name === undefined || c.name === name),
  );
}

/** The text content of an element (its text children, concatenated). */
export function textOf(element: XmlElement): string {
  return element.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}
