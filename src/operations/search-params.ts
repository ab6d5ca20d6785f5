import { z } from 'zod';

/** Parameter names models already know; shared by every search-shaped operation. */
export const searchParams = {
  query: z.string().trim().min(1).max(500).describe('What to search for (1–500 characters).'),
  providers: z
    .array(z.string().trim().min(1))
    .min(1)
    .max(20)
    .optional()
    .describe('Provider names to ask (see list_providers); default: every configured provider of the kind.'),
  max_results: z.number().int().min(1).max(50).default(10).describe('How many merged results to return (1–50, default 10).'),
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(30_000)
    .optional()
    .describe('Deadline in milliseconds (100–30000); late providers are reported as timeout.'),
};
