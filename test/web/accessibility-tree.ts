import type { Page } from 'playwright-core';

/** What a screen reader is given for an element: its name (what a links list reads) and its description (read after it). */
export interface AccessibleText {
  name: string;
  description: string;
}

interface AxNode {
  name?: { value?: unknown };
  description?: { value?: unknown };
}

/**
 * The accessible name and description of each element `selector` matches, as Chromium's accessibility tree computes
 * them (through the DevTools protocol): the browser's own answer, not one rebuilt here from attributes.
 */
export async function accessibleTextOf(page: Page, selector: string): Promise<AccessibleText[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const count = await page.locator(selector).count();
    const found: AccessibleText[] = [];
    for (let index = 0; index < count; index += 1) {
      const expression = `document.querySelectorAll(${JSON.stringify(selector)})[${index}]`;
      const { result } = (await session.send('Runtime.evaluate', { expression })) as { result: { objectId?: string } };
      const { nodes } = (await session.send('Accessibility.getPartialAXTree', { objectId: result.objectId, fetchRelatives: false })) as { nodes: AxNode[] };
      const node = nodes[0];
      found.push({ name: String(node?.name?.value ?? ''), description: String(node?.description?.value ?? '') });
    }
    return found;
  } finally {
    await session.detach();
  }
}
