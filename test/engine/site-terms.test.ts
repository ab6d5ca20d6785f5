import { describe, expect, it } from 'vitest';
import { sharedEntries } from '../../src/engine/site-terms.js';

describe('the domains a site: term and include_domains both allow', () => {
  it('is the narrower host under the longer path of each pair that overlaps', () => {
    expect(sharedEntries(['docs.rs'], ['docs.rs/tokio'])).toEqual(['docs.rs/tokio']);
    expect(sharedEntries(['docs.rs/tokio/'], ['docs.rs'])).toEqual(['docs.rs/tokio']);
    // A subdomain of the one, a path of the other: the pages on the subdomain under that path.
    expect(sharedEntries(['docs.example.org'], ['example.org/guide'])).toEqual(['docs.example.org/guide']);
    expect(sharedEntries(['a.org', 'b.org'], ['b.org', 'c.org', 'sub.a.org']).sort()).toEqual(['b.org', 'sub.a.org']);
    // www. names the same site, as the filter reads it.
    expect(sharedEntries(['www.example.org'], ['example.org'])).toEqual(['www.example.org']);
    // Percent-encoding makes no other path, as the filter reads paths: `/caf%C3%A9` is `/café`, `%7E` is `~`.
    expect(sharedEntries(['example.org/caf%C3%A9'], ['example.org/café'])).toEqual(['example.org/caf%C3%A9']);
    expect(sharedEntries(['example.org/café/menu'], ['example.org/caf%c3%a9'])).toEqual(['example.org/café/menu']);
    expect(sharedEntries(['example.org/%7Eann'], ['example.org/~ann/'])).toEqual(['example.org/%7Eann']);
  });

  it('is nothing for pairs that do not overlap: other sites, other paths, a path that only starts alike', () => {
    expect(sharedEntries(['a.org'], ['b.org'])).toEqual([]);
    expect(sharedEntries(['a.org'], ['nota.org', 'xa.org'])).toEqual([]);
    expect(sharedEntries(['a.org/x'], ['a.org/y'])).toEqual([]);
    expect(sharedEntries(['a.org/guide'], ['a.org/guides'])).toEqual([]);
    // www.com is one site, not every .com one: it shares nothing with example.com.
    expect(sharedEntries(['www.com'], ['example.com'])).toEqual([]);
  });
});
