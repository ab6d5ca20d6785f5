import { z } from 'zod';
import { FedsearchError, type ErrorCode } from '../domain/errors.js';
import { cutText } from '../domain/cut-text.js';
import { composedText, MAX_QUERY_LENGTH, refuseUnsendableText } from '../domain/query-text.js';
import { parseInput } from '../domain/validation.js';
import { answerText, defineOperation, type OperationContext } from './operation.js';
import { researchOutput } from './output-schemas.js';
import { errorText, MAX_RENDERED_CHARS } from './render.js';
import { analyseQuery, definitionSubject, type QuerySignals, type Topic } from './query-analysis.js';
import { plannedQuery, type QueryShape } from './planned-query.js';
import { findYearSpan, withoutYearSpan, type YearSpan } from './question-years.js';
import { researchFailure } from './research-failure.js';

/** One step of a plan: which operation, with which parameters, and why. */
export interface PlannedStep {
  operation: string;
  params: Record<string, unknown>;
  score: number;
  reason: string;
}

export interface ResearchSection {
  operation: string;
  reason: string;
  output?: unknown;
  /** The operation's own text rendering of its output, as a model would read it. */
  text?: string;
  error?: string;
  /** A failed step's code, and the wait it asks for when it names one: what the operation alone answers with. */
  code?: ErrorCode;
  retry_after_ms?: number;
}

export interface ResearchAnswer {
  query: string;
  depth: number;
  plan: PlannedStep[];
  /** Providers whose steps the question called for but were left out because their breakers hold them; absent when none. */
  suspended?: string[];
  sections: ResearchSection[];
}

/** A step is planned only when its score reaches this; web search is always a candidate at 0.5. */
export const PLAN_THRESHOLD = 0.35;
const WEB_BASELINE = 0.5;

/**
 * Chooses operations by documented scores: a link scores 1.0 for fetch_url (the video operations instead for a
 * YouTube video link, the paper operations for a paper link), a paper identifier 1.0 for paper_details (and 0.6 for paper_read), and each topic's score
 * (0.35 per matching word, at most 1) for its operation: papers → paper_search, code → github_search, video →
 * youtube_search, discussion → reddit_search, news → hackernews_search, and a definitional question ("what is …",
 * "who was …", "define …") its definition score for wikipedia_search of its subject, unless another topic outranks
 * it or the question is about a link or a paper; web_search is always a candidate at
 * 0.5, plus the news score (with time_range week when news words appear). A question for recent papers ("recent
 * papers on …", "latest research in …") is not news: its paper_search asks from last year on (year_from), its web
 * search the last year, and no Hacker News. Years the question names ("this year", "last year", "in 2025", "since
 * 2023", "2019–2021", question-years.ts) give paper_search year_from/year_to and the web and Hacker News time_range
 * 'year' when they lie within it, none otherwise (not last week's news), and leave the queries of providers that
 * match every word. Hacker News searches the web's time range. Each search is sent the words its providers can use (planned-query.ts),
 * web_search the question as asked. Depth n runs the n + 1 best steps
 * with 2 + 3n results each; a page, paper or transcript is read 4000·n characters at a time, at most its section's share.
 * A step that needs one provider (Wikipedia, GitHub, YouTube, YouTube's captions, Hacker News) is planned only when
 * `admissible` says that provider may be asked now (configured and not suspended, as providers=auto routes): a
 * suspended one's step took one of the depth + 1 slots and came back a failed section, while the next step stood by.
 */
export function planResearch(
  query: string,
  depth: number,
  admissible: (provider: string) => boolean,
  signals: QuerySignals = analyseQuery(query),
  year: number = new Date().getUTCFullYear(),
): PlannedStep[] {
  const maxResults = Math.min(50, 2 + 3 * depth);
  const text = searchWordsOf(query);
  const words = (topic: keyof QuerySignals['reasons']) => signals.reasons[topic].join(', ');
  const recentPapers = asksForRecentPapers(signals);
  const newsScore = recentPapers ? 0 : signals.scores.news;
  // Years the question names ("since 2023", "this year") are filters, and say more than "recent" or a news word.
  const span = findYearSpan(text, year);
  const years = span ? yearFilters(span) : recentPapers ? { year_from: year - 1 } : {};
  const timeRange = span ? span.time_range : recentPapers ? 'year' : newsScore >= PLAN_THRESHOLD ? 'week' : undefined;
  const steps: PlannedStep[] = [];
  // A link to a paper (doi.org, arXiv, PubMed) is read by paper_details and paper_read below: fetching it as a page
  // too would download the same PDF twice and put its text in the answer twice.
  const pages = signals.urls.filter((candidate) => !signals.youtubeUrls.includes(candidate) && !signals.paperIds.includes(candidate));
  for (const url of pages.slice(0, 3)) {
    steps.push({ operation: 'fetch_url', params: { url, max_chars: 4000 * depth }, score: 1, reason: `the query links to ${url}` });
  }
  if (signals.youtubeUrls.length > 0 && admissible('youtube')) {
    steps.push({ operation: 'youtube_video_details', params: { ids: signals.youtubeUrls.slice(0, 10) }, score: 1, reason: 'the query links to YouTube videos' });
  }
  // Captions come from youtube_web, asked about only when there are videos: a provider asked about and found
  // suspended is named as passed over, and a suspended youtube_web is no news to a research without videos.
  const captioned = signals.youtubeUrls.length > 0 && admissible('youtube_web') ? signals.youtubeUrls.slice(0, 2) : [];
  for (const url of captioned) {
    // Read like a page (its section's share): at its default 20,000 characters the section was cut, and its
    // "continue: youtube_transcript with offset N" skipped what the cut left out.
    steps.push({ operation: 'youtube_transcript', params: { video: url, max_chars: 4000 * depth }, score: 0.9, reason: `the captions of ${url}` });
  }
  for (const id of signals.paperIds.slice(0, 3)) {
    steps.push({ operation: 'paper_details', params: { id }, score: 1, reason: `the query names the paper ${id}` });
    steps.push({ operation: 'paper_read', params: { id, max_chars: 4000 * depth }, score: 0.6, reason: `the full text of ${id}` });
  }
  if (asksWhatSomethingIs(signals) && admissible('wikipedia')) {
    const subject = definitionSubject(text);
    steps.push({ operation: 'wikipedia_search', params: { query: subject, max_results: maxResults }, score: signals.scores.definition, reason: `definition words: ${words('definition')}` });
  }
  // Which operation each topic plans, the provider it needs, and how its providers read a query (planned-query.ts).
  const topicSteps: Array<[Topic, string, string | undefined, QueryShape]> = [
    ['papers', 'paper_search', undefined, 'all-terms'],
    ['biomedical', 'paper_search', undefined, 'all-terms'],
    ['code', 'github_search', 'github', 'all-terms'],
    ['video', 'youtube_search', 'youtube', 'relevance'],
    ['discussion', 'reddit_search', undefined, 'as-asked'],
    ['news', 'hackernews_search', 'hackernews', 'all-terms'],
  ];
  for (const [topic, operation, provider, shape] of topicSteps) {
    const score = topic === 'news' ? newsScore : signals.scores[topic];
    if (score < PLAN_THRESHOLD || (provider && !admissible(provider)) || steps.some((step) => step.operation === operation)) continue;
    // A filter where the operation has one: Hacker News reads time_range as the web does, the paper providers years.
    const filters = operation === 'paper_search' ? years : operation === 'hackernews_search' && timeRange ? { time_range: timeRange } : {};
    // Providers that match every word would demand "since" and "2023" in the text: the span's words go with the filters.
    const asked = shape === 'all-terms' ? withoutYearSpan(text, span) : text;
    steps.push({ operation, params: { query: plannedQuery(asked, shape), max_results: maxResults, ...filters }, score, reason: `${topic} words: ${words(topic)}` });
  }
  steps.push({
    operation: 'web_search',
    params: { query: text, max_results: maxResults, ...(timeRange ? { time_range: timeRange } : {}) },
    score: Math.min(1, WEB_BASELINE + newsScore / 2),
    reason:
      span ? `general web search${timeRange ? ', the last year' : ''} (years asked: ${span.phrase.trim()})`
      : recentPapers ? `general web search, the last year (recent papers: ${words('news')})`
      : timeRange ? `general web search, recent (news words: ${words('news')})`
      : 'general web search',
  });
  const chosen = steps
    .filter((step) => step.score >= PLAN_THRESHOLD)
    .sort((a, b) => b.score - a.score)
    .slice(0, depth + 1);
  return chosen.map((step) => {
    const maxChars = step.params.max_chars;
    return typeof maxChars === 'number' ? { ...step, params: { ...step.params, max_chars: readShare(maxChars, chosen.length) } } : step;
  });
}

/** paper_search's filters for the years a question names. */
function yearFilters(span: YearSpan): { year_from?: number; year_to?: number } {
  return { ...(span.year_from !== undefined ? { year_from: span.year_from } : {}), ...(span.year_to !== undefined ? { year_to: span.year_to } : {}) };
}

/**
 * A question of what or who something is, about no link or paper of its own: "what is a transformer model", "who
 * was Ada Lovelace", "define entropy". Not when another topic outranks it ("what is the latest news on …" asks for
 * news): Wikipedia is one more upstream call a research, planned where its article is what the question wants.
 */
function asksWhatSomethingIs(signals: QuerySignals): boolean {
  const definition = signals.scores.definition;
  if (definition < PLAN_THRESHOLD || signals.urls.length > 0 || signals.paperIds.length > 0) return false;
  return (Object.keys(signals.scores) as Topic[]).every((topic) => signals.scores[topic] <= definition);
}

/** Words that ask for what is new, not for news: beside paper words they ask for papers of the last year or so. */
const RECENCY_WORDS: ReadonlySet<string> = new Set(['latest', 'newest', 'recent', 'recently']);

/**
 * "recent papers on protein folding", "latest research on …": papers of late, which a paper search finds from last
 * year on. Read as news, it limited the web search to last week (few papers are written about in a week) and asked
 * Hacker News, while paper_search had no year at all. Not when a news word of its own is there ("news about …").
 */
function asksForRecentPapers(signals: QuerySignals): boolean {
  // Paper words, not medical ones alone: "latest covid vaccine guidance" asks for this week's news.
  const newsWords = signals.reasons.news;
  return signals.scores.papers >= PLAN_THRESHOLD && newsWords.length > 0 && newsWords.every((word) => RECENCY_WORDS.has(word));
}

/** What auto_research's text gives its sections in all; the plan is rendered outside this. */
const SECTIONS_CHARS = 18_000;
/** What a section of a page or a paper needs beside its text: heading, parameters, title, address, the paging line. */
const SECTION_FRAME_CHARS = 3_000;

/**
 * A page or paper read no longer than its section's share of the text: read longer, its section was cut, and the
 * "continue: fetch_url with offset N" it shows skipped what the cut left out.
 */
function readShare(maxChars: number, sections: number): number {
  return Math.max(500, Math.min(maxChars, Math.floor((SECTIONS_CHARS - SECTION_FRAME_CHARS) / sections)));
}

/**
 * The query without its links, white space folded: empty when it is all links. The value of a site: term is no link
 * (query-analysis.ts): it stays, or the searches would be sent `site:` with no site after it, and search anywhere.
 */
function wordsBesideLinks(query: string): string {
  return query.replace(/(?<![Ss][Ii][Tt][Ee]:)\bhttps?:\/\/\S+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The words the planned searches send: the query without its links (the query itself when it is all links). */
function searchWordsOf(query: string): string {
  return wordsBesideLinks(query) || query;
}

/**
 * The research query: up to 1,000 characters with its links, text a provider can be asked about (as every
 * search's), and words outside the links that fit one search (500 characters), since the searches it plans
 * send those words: a longer query got a 200 whose every search section had failed.
 */
const researchQuery = z
  .string()
  .trim()
  .overwrite(composedText)
  .min(1)
  .max(1000)
  .superRefine((query, context) => {
    if (query === '' || !refuseUnsendableText(query, context)) return;
    // Measured as the searches' own limit measures it (zod's max: UTF-16 units).
    const besideLinks = wordsBesideLinks(query);
    const words = besideLinks || query;
    if (words.length > MAX_QUERY_LENGTH) {
      // A query of links alone is what its searches send: "besides its links" would name characters it does not have.
      const measured = besideLinks === '' ? `is links alone, which its searches send as they are: ${words.length} characters` : `has ${words.length} characters besides its links`;
      context.addIssue({
        code: 'custom',
        message: `${measured}; allowed: at most ${MAX_QUERY_LENGTH}, which its searches send (links count apart, up to 1000 in all)`,
        input: query,
      });
    }
  })
  .describe(`The question or topic, with any links or identifiers (at most ${MAX_QUERY_LENGTH} characters besides its links, 1000 in all).`);

const CUT_NOTE = "… (cut to fit; this section's JSON output has all of it)";

/**
 * Each section's share of the text: SECTIONS_CHARS between them, less where the plan and the headings (whose
 * parameters repeat the query) would take the answer past MAX_RENDERED_CHARS. Past it, the tool's own bound cut the
 * last section's end, its "more results" line with it, and no note said so.
 */
function sectionBudget(preface: string, headings: string[]): number {
  const sections = Math.max(1, headings.length);
  const frame = preface.length + 2 + headings.reduce((sum, heading) => sum + heading.length + 3 + CUT_NOTE.length, 0);
  return Math.max(0, Math.min(Math.floor(SECTIONS_CHARS / sections), Math.floor((MAX_RENDERED_CHARS - frame) / sections)));
}

/** A step that failed with one of our errors: its message, code and the wait it asks for, as its operation alone answers them. */
function failedSection(step: PlannedStep, error: FedsearchError): ResearchSection {
  const section: ResearchSection = { operation: step.operation, reason: step.reason, error: error.message, code: error.code };
  if (error.retryAfterMs !== undefined) section.retry_after_ms = Math.max(0, Math.round(error.retryAfterMs));
  return section;
}

async function runStep(step: PlannedStep, context: OperationContext): Promise<ResearchSection> {
  const operation = context.operations().find((candidate) => candidate.name === step.operation);
  if (!operation) return { operation: step.operation, reason: step.reason, error: 'no such operation' };
  try {
    const params = parseInput(operation.input, step.params, `${step.operation} parameters`);
    const output = await operation.run(params, context);
    // As the operation answers alone over MCP: a search no provider answered says so first, not "No results." alone.
    return { operation: step.operation, reason: step.reason, output, text: answerText(operation, output, params, context).text };
  } catch (error) {
    // One failed step (a page that refuses, a paper nobody knows) never sinks the others. A failure that is not
    // one of ours is a defect: logged with its stack, as the REST and MCP paths log theirs, and named as such.
    if (error instanceof FedsearchError) return failedSection(step, error);
    // A call its client cancelled fails its steps with the abort's reason, which is the client's own text (MCP's
    // notifications/cancelled `reason`, any length): no defect, and not for the error log, as tool-calls.ts has it.
    if (context.signal.aborted) return { operation: step.operation, reason: step.reason, error: 'cancelled: the client went away', code: 'REQUEST_CANCELLED' };
    context.logger.error({ err: error, operation: step.operation }, 'auto_research step failed');
    return { operation: step.operation, reason: step.reason, error: 'internal error (logged)', code: 'INTERNAL' };
  }
}

export const autoResearch = defineOperation({
  name: 'auto_research',
  description:
    'Research a question automatically: analyses it (links, YouTube videos, DOIs/arXiv ids/PMIDs, code, news, paper and discussion words), ' +
    'plans operations by documented scores, runs them in parallel and returns each result with the plan and its reasons.',
  input: z.strictObject({
    query: researchQuery,
    depth: z.number().int().min(1).max(5).default(2).describe('1–5: how many operations to run (depth + 1) and how many results each.'),
  }),
  example: { query: 'latest research on retrieval augmented generation 2026', depth: 2 },
  output: researchOutput,
  run: async (input, context): Promise<ResearchAnswer> => {
    // Planned as providers=auto routes: a suspended provider's step would only fail, so its slot goes to the next
    // step, and the answer names the providers passed over (as routing's `suspended, not chosen`).
    const suspended = new Set<string>();
    const plan = planResearch(input.query, input.depth, (provider) => {
      if (context.search.isAdmissible(provider)) return true;
      if (context.search.isConfigured(provider)) suspended.add(provider);
      return false;
    });
    // paper_details and paper_read of one id run at once: one lookup serves both.
    const stepContext: OperationContext = { ...context, paperLookups: new Map() };
    const sections = await Promise.all(plan.map((step) => runStep(step, stepContext)));
    return { query: input.query, depth: input.depth, plan, ...(suspended.size > 0 ? { suspended: [...suspended] } : {}), sections };
  },
  render: (output) => {
    const planLines = output.plan.map((step, index) => `${index + 1}. ${step.operation} (score ${step.score.toFixed(2)}): ${step.reason}`);
    const passedOver = output.suspended ? `\nsuspended, not planned: ${output.suspended.join(', ')}` : '';
    const preface = `Plan for "${output.query}" (depth ${output.depth}):\n${planLines.join('\n')}${passedOver}`;
    // Section i is the answer to step i of the plan. Its parameters are shown because a section's own text says how
    // to go on ("more results: web_search with page: 2"): that call is made with these parameters and the one named.
    const headings = output.sections.map((section, index) => {
      const params = output.plan[index]?.params;
      return `## ${section.operation} — ${section.reason}${params ? `\nparameters: ${JSON.stringify(params)}` : ''}`;
    });
    const budget = sectionBudget(preface, headings);
    const sections = output.sections.map((section, index) => {
      const heading = headings[index]!;
      // As the step's operation alone fails over MCP: its message, then the code and wait an agent can act on.
      if (section.error) return `${heading}\nfailed: ${errorText(section.error, section.code, section.retry_after_ms)}`;
      const body = section.text ?? '';
      return `${heading}\n${body.length > budget ? cutText(body, budget, CUT_NOTE) : body}`;
    });
    return `${preface}\n\n${sections.join('\n\n')}`;
  },
  failure: (output, context) => researchFailure(output.sections, context),
  failureRule: 'Fails only when every step failed; otherwise a section whose step failed says why.',
});
