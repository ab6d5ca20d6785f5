import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FedsearchError } from '../../src/domain/errors.js';
import { autoResearch, planResearch, type ResearchAnswer } from '../../src/operations/auto-research.js';
import { defineOperation, type OperationContext } from '../../src/operations/operation.js';
import { analyseQuery } from '../../src/operations/query-analysis.js';
import { MAX_RENDERED_CHARS } from '../../src/operations/render.js';

const everythingConfigured = () => true;

describe('query analysis', () => {
  it('finds links, YouTube links and paper identifiers', () => {
    const signals = analyseQuery('compare https://example.com/post and https://youtu.be/dQw4w9WgXcQ with 10.1038/nature14539, arXiv:1706.03762 and PMID 29915538');
    expect(signals.urls).toEqual(['https://example.com/post', 'https://youtu.be/dQw4w9WgXcQ']);
    expect(signals.youtubeUrls).toEqual(['https://youtu.be/dQw4w9WgXcQ']);
    expect(signals.paperIds).toEqual(['10.1038/nature14539', 'arXiv:1706.03762', 'PMID:29915538']);
  });

  it('takes only video links for YouTube videos: a channel or playlist link is a page like any other', () => {
    const signals = analyseQuery('compare https://www.youtube.com/@MusicChannel https://www.youtube.com/watch?v=dQw4w9WgXcQ https://www.youtube.com/playlist?list=PL123');
    expect(signals.youtubeUrls).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ']);
    const plan = planResearch('compare https://www.youtube.com/@MusicChannel https://www.youtube.com/watch?v=dQw4w9WgXcQ', 5, everythingConfigured);
    expect(plan.find((step) => step.operation === 'youtube_video_details')?.params).toEqual({ ids: ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'] });
    expect(plan.filter((step) => step.operation === 'fetch_url').map((step) => step.params.url)).toEqual(['https://www.youtube.com/@MusicChannel']);
  });

  it('takes no site: value for a link or a paper: a site: term names where to search, not what to read', () => {
    const signals = analyseQuery('tokio runtime site:https://docs.rs/tokio -SITE:https://www.reddit.com/ site:arxiv.org/abs/1706.03762 see https://example.com/post');
    expect(signals.urls).toEqual(['https://example.com/post']);
    expect(signals.paperIds).toEqual([]);
    // A value that names no domain stays a word of the text, and is no link either.
    expect(analyseQuery('status site:http://localhost:8080/health').urls).toEqual([]);
    const plan = planResearch('tokio runtime site:https://docs.rs/tokio', 2, everythingConfigured);
    expect(plan.filter((step) => step.operation === 'fetch_url')).toEqual([]);
    // The searches are sent the site: term whole, not `site:` with its value cut off as a link.
    expect(plan.find((step) => step.operation === 'web_search')?.params.query).toBe('tokio runtime site:https://docs.rs/tokio');
  });

  it('scores topics by their words, 0.35 a word up to 1', () => {
    const signals = analyseQuery('clinical trial of a cancer drug: latest papers');
    expect(signals.scores.biomedical).toBe(1);
    expect(signals.reasons.biomedical).toEqual(['clinical', 'trial', 'cancer', 'drug']);
    expect(signals.scores.papers).toBeCloseTo(0.35);
    expect(signals.scores.news).toBeCloseTo(0.35);
    expect(signals.scores.code).toBe(0);
  });
});

describe('planResearch', () => {
  it('reads a linked page and a named paper before searching, with reasons', () => {
    const plan = planResearch('what does 10.1038/nature14539 say, see https://example.com/review', 3, everythingConfigured);
    expect(plan.map((step) => step.operation)).toEqual(['fetch_url', 'paper_details', 'paper_read', 'web_search']);
    expect(plan[0]).toMatchObject({ params: { url: 'https://example.com/review' }, score: 1, reason: 'the query links to https://example.com/review' });
    expect(plan[1]).toMatchObject({ params: { id: '10.1038/nature14539' } });
  });

  it('reads a linked paper once: its details and its PDF, not fetch_url of the same link besides', () => {
    for (const link of ['https://arxiv.org/pdf/1706.03762', 'https://doi.org/10.1038/nature14539']) {
      const plan = planResearch(`summarise ${link}`, 2, everythingConfigured);
      expect(plan.map((step) => step.operation)).toEqual(['paper_details', 'paper_read', 'web_search']);
      expect(plan.filter((step) => Object.values(step.params).includes(link)).map((step) => step.operation)).toEqual(['paper_details', 'paper_read']);
    }
    // Any other link is still read as a page, beside the paper.
    const plan = planResearch('compare https://example.com/review with https://arxiv.org/abs/1706.03762', 2, everythingConfigured);
    expect(plan.map((step) => step.operation)).toEqual(['fetch_url', 'paper_details', 'paper_read']);
  });

  it('chooses code, news and paper operations by their words, and web search with a time range for news', () => {
    const plan = planResearch('latest news on the rust tokio library release', 4, everythingConfigured);
    const operations = plan.map((step) => step.operation);
    expect(operations).toContain('github_search');
    expect(operations).toContain('hackernews_search');
    const web = plan.find((step) => step.operation === 'web_search')!;
    expect(web.params).toMatchObject({ time_range: 'week', max_results: 14 });
  });

  it('runs depth + 1 steps at most, and leaves out operations whose provider is not configured', () => {
    const plan = planResearch('python library for pdf parsing video tutorial paper', 1, (provider) => provider !== 'youtube');
    expect(plan).toHaveLength(2);
    expect(plan.map((step) => step.operation)).not.toContain('youtube_search');
    expect(plan[0]!.score).toBeGreaterThanOrEqual(plan[1]!.score);
  });

  it('searches Wikipedia for the subject of a definitional question, and only of one', () => {
    const wikipediaQuery = (query: string, configured: (provider: string) => boolean = everythingConfigured) =>
      planResearch(query, 2, configured).find((step) => step.operation === 'wikipedia_search')?.params.query;
    expect(wikipediaQuery('what is a transformer model')).toBe('transformer model');
    expect(wikipediaQuery('Who was Ada Lovelace?')).toBe('Ada Lovelace');
    expect(wikipediaQuery('define entropy')).toBe('entropy');
    expect(wikipediaQuery('what’s a monad')).toBe('monad');
    expect(wikipediaQuery('what does idempotent mean in HTTP')).toBe('idempotent');
    expect(wikipediaQuery('meaning of ubuntu')).toBe('ubuntu');
    expect(wikipediaQuery('history of the Roman Empire')).toBe('history of the Roman Empire');
    // Another topic outranks it, the question is about a link or a paper, nothing asks what something is, or no Wikipedia.
    expect(wikipediaQuery('what is the latest news on the tokio release')).toBeUndefined();
    expect(wikipediaQuery('what is the best python library for pdf parsing')).toBeUndefined();
    expect(wikipediaQuery('what is https://example.com/post about')).toBeUndefined();
    expect(wikipediaQuery('what is 10.1038/nature14539')).toBeUndefined();
    expect(wikipediaQuery('sourdough hydration')).toBeUndefined();
    expect(wikipediaQuery('define entropy', (provider) => provider !== 'wikipedia')).toBeUndefined();
  });

  it('takes a year for part of what is asked, not for news of the last week', () => {
    for (const query of ['the 2024 Nobel prize in physics', 'best laptops 2025']) {
      expect(planResearch(query, 2, everythingConfigured)).toEqual([{ operation: 'web_search', params: { query, max_results: 8 }, score: 0.5, reason: 'general web search' }]);
    }
  });

  it('takes news words for news, but not how-to questions or "update", "release", "current", "now" alone', () => {
    const plan = (query: string) => planResearch(query, 4, everythingConfigured);
    const isNews = (query: string) => {
      const steps = plan(query);
      const web = steps.find((step) => step.operation === 'web_search')!;
      const hackernews = steps.some((step) => step.operation === 'hackernews_search');
      expect(hackernews, query).toBe(web.params.time_range === 'week');
      return hackernews;
    };
    for (const query of ['latest release of node', "what's new in TypeScript 5.5", 'news about the EU AI act', 'node 22 released', 'how did the markets react to today’s news']) {
      expect(isNews(query), query).toBe(true);
    }
    for (const query of ['how do I update npm packages', 'how to install the latest node', 'release a crate to crates.io', 'current density in a copper wire', 'is it too late now to learn latin']) {
      expect(isNews(query), query).toBe(false);
    }
    // "what's new in …" asks for news, not for an encyclopedia article on "new in TypeScript 5.5".
    expect(plan("what's new in TypeScript 5.5").map((step) => step.operation)).not.toContain('wikipedia_search');
  });

  it('asks for recent papers from last year on, and the web for the last year, not for last week\'s news', () => {
    const plan = planResearch('recent papers on protein folding', 2, everythingConfigured, undefined, 2026);
    expect(plan).toEqual([
      { operation: 'web_search', params: { query: 'recent papers on protein folding', max_results: 8, time_range: 'year' }, score: 0.5, reason: 'general web search, the last year (recent papers: recent)' },
      { operation: 'paper_search', params: { query: 'protein folding', max_results: 8, year_from: 2025 }, score: 0.35, reason: 'papers words: papers' },
    ]);
    // A news word of its own still asks for the week's news, and papers without a recency word for no year.
    const news = planResearch('latest news on arxiv papers about protein folding', 4, everythingConfigured, undefined, 2026);
    expect(news.find((step) => step.operation === 'web_search')!.params.time_range).toBe('week');
    expect(news.find((step) => step.operation === 'paper_search')!.params.year_from).toBeUndefined();
    expect(planResearch('papers on protein folding', 2, everythingConfigured).find((step) => step.operation === 'paper_search')!.params).toEqual({ query: 'protein folding', max_results: 8 });
  });

  it('reads the years a question names as filters: paper_search years, the web and Hacker News a time range, no year words for arXiv', () => {
    const step = (query: string, operation: string) => planResearch(query, 5, everythingConfigured, undefined, 2026).find((planned) => planned.operation === operation);
    const filters = (query: string) => {
      const papers = step(query, 'paper_search')!.params;
      return { query: papers.query, year_from: papers.year_from, year_to: papers.year_to, web: step(query, 'web_search')!.params.time_range };
    };
    expect(filters('papers on protein folding this year')).toEqual({ query: 'protein folding', year_from: 2026, year_to: 2026, web: 'year' });
    expect(filters('papers on protein folding in 2025')).toEqual({ query: 'protein folding', year_from: 2025, year_to: 2025, web: undefined });
    expect(filters('papers on protein folding in 2026')).toEqual({ query: 'protein folding', year_from: 2026, year_to: 2026, web: 'year' });
    expect(filters('papers on protein folding since 2023')).toEqual({ query: 'protein folding', year_from: 2023, year_to: undefined, web: undefined });
    expect(filters('papers on protein folding from 2023')).toEqual({ query: 'protein folding', year_from: 2023, year_to: undefined, web: undefined });
    expect(filters('protein folding papers 2019-2021')).toEqual({ query: 'protein folding', year_from: 2019, year_to: 2021, web: undefined });
    expect(filters('protein folding papers 2019–2021')).toEqual({ query: 'protein folding', year_from: 2019, year_to: 2021, web: undefined });
    expect(filters('protein folding papers from 2019 to 2021')).toEqual({ query: 'protein folding', year_from: 2019, year_to: 2021, web: undefined });
    expect(filters('papers on protein folding last year')).toEqual({ query: 'protein folding', year_from: 2025, year_to: 2025, web: undefined });
    expect(filters('papers on protein folding in the past year')).toEqual({ query: 'protein folding', year_from: 2025, year_to: undefined, web: 'year' });
    // Years said explicitly win over "recent", and the web is not limited to a year that would cut them off.
    expect(filters('recent papers on protein folding since 2023')).toEqual({ query: 'protein folding', year_from: 2023, year_to: undefined, web: undefined });
    // A year inside a name, a future year, or two spans stay words: no filter could say what is asked.
    expect(filters('GPT-4 2024 paper titled sparks of AGI')).toEqual({ query: 'GPT-4 2024 titled sparks AGI', year_from: undefined, year_to: undefined, web: undefined });
    expect(filters('papers on AI predictions in 2030')).toEqual({ query: 'AI predictions 2030', year_from: undefined, year_to: undefined, web: undefined });
    // Long ago, a bare year or range says when something happened, which papers are still written about.
    expect(filters('papers on the moon landing in 1969')).toEqual({ query: 'moon landing 1969', year_from: undefined, year_to: undefined, web: undefined });
    expect(filters('papers on WWII 1939–1945')).toEqual({ query: 'WWII 1939–1945', year_from: undefined, year_to: undefined, web: undefined });
    expect(filters('papers on the moon landing since 1969')).toMatchObject({ year_from: 1969 });
    expect(filters('papers on covid in 2020 and in 2022')).toEqual({ query: 'covid 2020 2022', year_from: undefined, year_to: undefined, web: undefined });
    expect(filters('papers on the covid-2019 outbreak')).toEqual({ query: 'covid-2019 outbreak', year_from: undefined, year_to: undefined, web: undefined });
  });

  it('asks Hacker News for the time range the web is asked for, and takes "this year" for a year, not for last week', () => {
    const plan = (query: string) => planResearch(query, 5, everythingConfigured, undefined, 2026);
    const news = plan('news about the EU AI act');
    expect(news.find((step) => step.operation === 'hackernews_search')!.params).toEqual({ query: 'EU AI act', max_results: 17, time_range: 'week' });
    expect(news.find((step) => step.operation === 'web_search')!.params.time_range).toBe('week');
    const thisYear = plan('news about the EU AI act this year');
    expect(thisYear.find((step) => step.operation === 'hackernews_search')!.params).toEqual({ query: 'EU AI act', max_results: 17, time_range: 'year' });
    expect(thisYear.find((step) => step.operation === 'web_search')).toMatchObject({
      params: { query: 'news about the EU AI act this year', time_range: 'year' },
      reason: 'general web search, the last year (years asked: this year)',
    });
    // News of a past year is not last week's: neither the web nor Hacker News is limited (Hacker News has no year filter,
    // and a story's title rarely says the year its words would demand).
    const pastYear = plan('news about the EU AI act in 2024');
    expect(pastYear.find((step) => step.operation === 'hackernews_search')!.params).toEqual({ query: 'EU AI act', max_results: 17 });
    expect(pastYear.find((step) => step.operation === 'web_search')!.params.time_range).toBeUndefined();
    // "this year" alone is no news word: no Hacker News search.
    expect(plan('sourdough starters this year').map((step) => step.operation)).toEqual(['web_search']);
  });

  it('sends a search that matches every word the subject alone, and the question as asked when nothing else is left', () => {
    const queryOf = (query: string, operation: string) => planResearch(query, 5, everythingConfigured).find((step) => step.operation === operation)?.params.query;
    expect(queryOf('what are the best python libraries for WHO covid-19 data', 'github_search')).toBe('python WHO covid-19 data');
    expect(queryOf('papers by Hinton et al. (2006) on "deep belief nets"', 'paper_search')).toBe('Hinton 2006 "deep belief nets"');
    expect(queryOf('find me videos: how to bake sourdough bread', 'youtube_search')).toBe('how to bake sourdough bread');
    expect(queryOf('latest papers', 'paper_search')).toBe('latest papers');
  });

  it('falls back to a plain web search when nothing stands out', () => {
    expect(planResearch('sourdough hydration', 2, everythingConfigured)).toEqual([
      { operation: 'web_search', params: { query: 'sourdough hydration', max_results: 8 }, score: 0.5, reason: 'general web search' },
    ]);
  });
});

describe('auto_research steps that fail', () => {
  /** A context whose only operation is a web_search that fails as given; the log lines go to `lines`. */
  function contextFailingWith(error: unknown, lines: string[]): OperationContext {
    const webSearch = defineOperation({
      name: 'web_search',
      description: 'fails',
      example: { query: 'x', max_results: 1 },
      input: z.strictObject({ query: z.string(), max_results: z.number() }),
      output: z.object({}),
      run: (): Promise<Record<string, never>> => Promise.reject(error),
      render: () => '',
    });
    return {
      search: { isConfigured: () => true, isAdmissible: () => true } as unknown as OperationContext['search'],
      config: {} as OperationContext['config'],
      operations: () => [webSearch],
      signal: new AbortController().signal,
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) as unknown as OperationContext['logger'],
    };
  }

  it("say our own error's message, and log nothing", async () => {
    const lines: string[] = [];
    const answer = (await autoResearch.run({ query: 'sourdough hydration', depth: 1 }, contextFailingWith(new FedsearchError('PROVIDERS_FAILED', 'every provider failed'), lines))) as ResearchAnswer;
    expect(answer.sections).toEqual([expect.objectContaining({ operation: 'web_search', error: 'every provider failed' })]);
    expect(lines).toEqual([]);
  });

  it('call anything else an internal error, and log it with its stack', async () => {
    const lines: string[] = [];
    const answer = (await autoResearch.run({ query: 'sourdough hydration', depth: 1 }, contextFailingWith(new TypeError('cannot read x of undefined'), lines))) as ResearchAnswer;
    expect(answer.sections).toEqual([expect.objectContaining({ operation: 'web_search', error: 'internal error (logged)' })]);
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]!) as { level: number; msg: string; operation: string; err: { type: string; message: string; stack: string } };
    expect(logged).toMatchObject({ level: 50, msg: 'auto_research step failed', operation: 'web_search', err: { type: 'TypeError', message: 'cannot read x of undefined' } });
    expect(logged.err.stack).toContain('TypeError');
  });
});

describe("auto_research's text", () => {
  it('stays within the bound of a tool answer, each section cut with a note rather than the last one lost', () => {
    // Six steps whose parameters each repeat a query of 450 characters, each section's text far too long.
    const query = `latest github repo paper video reddit news ${'word '.repeat(80)}`.trim();
    const plan = planResearch(query, 5, everythingConfigured);
    expect(plan).toHaveLength(6);
    const sections = plan.map((step) => ({ operation: step.operation, reason: step.reason, text: `${'x'.repeat(20_000)}\nPage 1; more results` }));
    const text = autoResearch.render({ query, depth: 5, plan, sections }, { query, depth: 5 });
    expect(text.length).toBeLessThanOrEqual(MAX_RENDERED_CHARS);
    const shown = text.split('\n\n## ').slice(1);
    expect(shown).toHaveLength(6);
    for (const section of shown) expect(section).toMatch(/… \(cut to fit; this section's JSON output has all of it\)$/);
  });
});
