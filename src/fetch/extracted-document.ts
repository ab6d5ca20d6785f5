export interface ExtractedLink {
  text: string;
  url: string;
}

/** What fetch_url returns about a page, before paging: whatever the extractor (HTML, PDF, text) it went through. */
export interface ExtractedDocument {
  title: string;
  byline?: string;
  published_at?: string;
  markdown: string;
  links: ExtractedLink[];
  content_type: string;
  /** A PDF whose reading stopped at its time limit: more time would have read more of it (extract-pdf.ts). */
  outOfTime?: true;
}
