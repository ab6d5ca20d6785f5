import type { OperationContext } from './operation.js';

/** What this reads of an auto_research section (auto-research.ts's ResearchSection; declared here, which it imports). */
interface StepSection {
  operation: string;
  output?: unknown;
  error?: string;
}

/**
 * Whether a section is what its operation, called alone, answers as a failed tool call: its step failed (a page
 * that refused, a paper nobody could look up), or its operation calls its answer a failure (a search no provider
 * answered: search-failure.ts). A search whose providers answered and found nothing is no failure, as alone.
 */
function sectionFailed(section: StepSection, context: OperationContext): boolean {
  if (section.error !== undefined) return true;
  const operation = context.operations().find((candidate) => candidate.name === section.operation);
  return operation?.failure?.(section.output, context) !== undefined;
}

/**
 * The first line of auto_research's MCP answer when every one of its steps failed (MCP then marks it isError), or
 * undefined when any section holds an answer. A research with a few sections that failed is partial, as a search
 * with a few failed providers is: each of those sections says so itself.
 */
export function researchFailure(sections: readonly StepSection[], context: OperationContext): string | undefined {
  if (sections.length === 0 || !sections.every((section) => sectionFailed(section, context))) return undefined;
  const names = sections.map((section) => section.operation).join(', ');
  const steps = sections.length === 1 ? `its one step (${names}) failed` : `all ${sections.length} of its steps (${names}) failed`;
  return `Research failed: ${steps}, so nothing was found or ruled out; each section below says why.`;
}
