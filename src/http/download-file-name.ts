/** Characters a file name must not hold on common systems, and controls: replaced, never sent. */
const UNSAFE_IN_FILE_NAMES = /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]+/g;

const MAX_NAME_CHARS = 100;

/**
 * The Content-Disposition of a downloaded PDF, named after the identifier asked for, else the last segment of the
 * URL it came from. `filename` is plain ASCII (letters, digits, `.`, `_`, `-`): nothing a header could be broken
 * with (quotes, CR/LF) and nothing an old client misreads. A name with other letters (é, 中) is also given whole
 * as RFC 6266's `filename*`, UTF-8 percent-encoded, which browsers prefer when present.
 */
export function contentDisposition(id: string | undefined, url: string): string {
  const name = withPdfExtension(readableName(id, url));
  const stem = name.replace(/\.pdf$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_');
  const ascii = withPdfExtension(/[A-Za-z0-9]/.test(stem) ? stem : 'paper');
  const plain = `attachment; filename="${ascii}"`;
  return ascii === name ? plain : `${plain}; filename*=UTF-8''${encodeAttributeValue(name)}`;
}

/** The name as a person would read it: the identifier, or the URL's last segment decoded; never empty. */
function readableName(id: string | undefined, url: string): string {
  const raw = id ?? new URL(url).pathname.split('/').pop() ?? '';
  let decoded = raw;
  if (id === undefined) {
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // A malformed escape is kept as written: its characters are still replaced where unsafe.
    }
  }
  const cleaned = [...decoded.replace(UNSAFE_IN_FILE_NAMES, '_').replace(/^[._\s]+/, '').trim()].slice(0, MAX_NAME_CHARS).join('');
  return cleaned === '' ? 'paper' : cleaned;
}

function withPdfExtension(name: string): string {
  return name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`;
}

/** RFC 8187's value-chars: attr-char as it is, every other byte of the UTF-8 name as %XX. */
function encodeAttributeValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}
