import { describe, expect, it } from 'vitest';
import { TAVILY_SEARCH_PATH as TAVILY } from '../support/service.js';
import { useWebResultsService } from '../support/web-results-service.js';

describe('domain filters with a path, applied by the engine where the provider cannot', () => {
  const service = useWebResultsService({
    brave: [
      { title: 'Guide intro', url: 'https://docs.example.com/guide/intro', description: 'under the path' },
      { title: 'Guide', url: 'https://docs.example.com/guide', description: 'the path itself' },
      { title: 'Guides', url: 'https://docs.example.com/guides/x', description: 'a longer segment' },
      { title: 'Private', url: 'https://docs.example.com/private/x', description: 'excluded' },
      { title: 'Public', url: 'https://docs.example.com/public', description: 'kept' },
      { title: 'Upper', url: 'https://docs.example.com/Guide/upper', description: 'another path: paths have letter case' },
      { title: 'Other', url: 'https://other.example.org/guide/intro', description: 'another host' },
    ],
    tavily: [
      { title: 'Tavily guide', url: 'https://docs.example.com/guide/intro', content: 'under the path' },
      { title: 'Tavily old guide', url: 'https://docs.example.com/guide/old/page', content: 'under the excluded path' },
      { title: 'Tavily blog', url: 'https://docs.example.com/blog/post', content: 'the host, not the path' },
    ],
  });
  const { upstream } = service;

  it('include_domains with a path keeps the path and what lies under it', async () => {
    expect(await service.urls('q=path+one&providers=brave&include_domains=docs.example.com/guide')).toEqual([
      'https://docs.example.com/guide/intro',
      'https://docs.example.com/guide',
    ]);
  });

  it('exclude_domains with a path drops only what lies under it', async () => {
    expect(await service.urls('q=path+two&providers=brave&exclude_domains=docs.example.com/private')).toEqual([
      'https://docs.example.com/guide/intro',
      'https://docs.example.com/guide',
      'https://docs.example.com/guides/x',
      'https://docs.example.com/public',
      'https://docs.example.com/Guide/upper',
      'https://other.example.org/guide/intro',
    ]);
  });

  it('reads the host in any letter case and a trailing slash, and keeps the letter case of the path', async () => {
    expect(await service.urls('q=path+three&providers=brave&include_domains=Docs.Example.com/Guide/')).toEqual(['https://docs.example.com/Guide/upper']);
  });

  it('takes a host entry beside a path entry: the host and its subdomains, any path', async () => {
    expect(await service.urls('q=path+four&providers=brave&include_domains=example.org,docs.example.com/public')).toEqual([
      'https://docs.example.com/public',
      'https://other.example.org/guide/intro',
    ]);
  });

  it('sends Tavily, which takes domains only, the hosts, and keeps only its results that the entries with a path allow', async () => {
    const answer = await service.urls('q=path+five&providers=tavily&include_domains=docs.example.com/guide&exclude_domains=docs.example.com/guide/old,spam.example.net');
    const body = JSON.parse(upstream.requestsTo(TAVILY).at(-1)!.body) as Record<string, unknown>;
    // Excluding the host of docs.example.com/guide/old would drop all of docs.example.com: only whole hosts are sent.
    expect(body).toMatchObject({ include_domains: ['docs.example.com'], exclude_domains: ['spam.example.net'] });
    expect(answer).toEqual(['https://docs.example.com/guide/intro']);
  });
});
