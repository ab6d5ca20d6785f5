// Server-Sent Events read from a fetch() response. EventSource cannot send an Authorization header, and an
// API key must never travel in the URL, so the page streams with fetch and parses the events here.

/** Yields `{ event, data }` for each event of a text/event-stream body; comment lines (heartbeats) are skipped. */
export async function* readEvents(response, signal) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end = blockEnd(buffer);
      while (end) {
        const event = parseBlock(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end.length);
        if (event) yield event;
        end = blockEnd(buffer);
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Where the first event ends: a blank line, in any of the line endings the format allows. */
function blockEnd(buffer) {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
  return match ? { index: match.index, length: match[0].length } : undefined;
}

function parseBlock(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return undefined;
  return { event, data: JSON.parse(data.join('\n')) };
}
