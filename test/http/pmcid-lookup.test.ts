import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { callOperation, providerEnv, startService, type RunningService } from '../support/service.js';

const ESEARCH = '/pubmed/entrez/eutils/esearch.fcgi';
const EFETCH = '/pubmed/entrez/eutils/efetch.fcgi';
/** Semantic Scholar takes a PMCID as PMCID:<digits>. */
const S2_PAPER = '/semanticscholar/graph/v1/paper/PMCID:7000003';

const foundOne = `<?xml version="1.0" encoding="UTF-8" ?>
<eSearchResult><Count>1</Count><RetMax>1</RetMax><RetStart>0</RetStart><IdList><Id>32000003</Id></IdList>
<TranslationSet/><QueryTranslation>PMC7000003[pmcid]</QueryTranslation></eSearchResult>`;

const article = `<?xml version="1.0" ?>
<PubmedArticleSet><PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">32000003</PMID>
<Article PubModel="Print"><Journal><JournalIssue><PubDate><Year>2020</Year></PubDate></JournalIssue><Title>Journal of Lookups</Title></Journal>
<ArticleTitle>Looking papers up by PMCID.</ArticleTitle></Article></MedlineCitation>
<PubmedData><ArticleIdList><ArticleId IdType="pubmed">32000003</ArticleId><ArticleId IdType="pmc">PMC7000003</ArticleId></ArticleIdList></PubmedData>
</PubmedArticle></PubmedArticleSet>`;

function xml(body: string) {
  return { kind: 'respond' as const, status: 200, headers: { 'content-type': 'text/xml; charset=UTF-8' }, body };
}

type Outcome = { provider: string; status: string; message?: string };

describe('paper_details by PMCID over REST', () => {
  let upstream: FakeUpstream;
  let service: RunningService;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.on(`GET ${ESEARCH}`, xml(foundOne)).on(`GET ${EFETCH}`, xml(article));
    upstream.json(`GET ${S2_PAPER}`, { error: `Paper with id PMCID:7000003 not found` }, 404);
    service = await startService({ ...providerEnv(upstream.origin), LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    await service.stop();
    await upstream.stop();
  });

  it('reads a PMC link as the PMCID, finds it through PubMed esearch then efetch, and keeps the PMCID on the paper', async () => {
    const response = await callOperation(service, 'paper_details', { id: 'https://pmc.ncbi.nlm.nih.gov/articles/PMC7000003/' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.identifier).toEqual({ type: 'pmcid', value: 'PMC7000003' });
    expect(body.paper).toMatchObject({ title: 'Looking papers up by PMCID.', pmid: '32000003', extra: { pmcid: 'PMC7000003' } });
    expect(upstream.requestsTo(ESEARCH).at(-1)!.url.searchParams.get('term')).toBe('PMC7000003[pmcid]');
    expect(upstream.requestsTo(EFETCH).at(-1)!.url.searchParams.get('id')).toBe('32000003');
    expect(upstream.requestsTo(S2_PAPER)).toHaveLength(1);
    const statuses = Object.fromEntries(body.providers.map((outcome: Outcome) => [outcome.provider, outcome.status]));
    expect(statuses).toEqual({ pubmed: 'ok', semanticscholar: 'ok', arxiv: 'skipped', crossref: 'skipped', openalex: 'skipped' });
    const openalex = body.providers.find((outcome: Outcome) => outcome.provider === 'openalex');
    expect(openalex.message).toBe('cannot look up pmcid identifiers');
  });

  it('names PMCIDs among the accepted forms when the id is none', async () => {
    const response = await callOperation(service, 'paper_details', { id: 'PMC-not-an-id' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('QUERY_INVALID');
    expect(body.message).toContain('a PMCID (PMC1234567)');
  });
});
