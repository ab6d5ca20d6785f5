/**
 * Bytes 0x80–0x9F as windows-1252 reads them (WHATWG Encoding Standard, index-windows-1252): curly quotes, dashes,
 * the euro sign. The five bytes it leaves unassigned stay the C1 controls of the same number.
 */
const HIGH_CONTROLS =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

/**
 * A windows-1252 body as text. Node's TextDecoder reads windows-1252 (and latin1, iso-8859-1, ascii: the labels
 * the web maps to it) as ISO-8859-1 since Node 20.18.3 and 22.13.0 (nodejs/node#56542, #60888), so a page's “quotes”,
 * dashes and € became invisible control characters. Every other byte is the code point of the same number.
 */
export function decodeWindows1252(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (control) => HIGH_CONTROLS[control.charCodeAt(0) - 0x80]!);
}
