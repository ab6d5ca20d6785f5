#!/usr/bin/env node
// The floor's work (../shared/bench/floor.mjs: four upstream GETs with undici, their JSON parsed, repeated URLs
// dropped, ten results answered) on a bare Fastify route: no plugins, hooks or schema. Run beside the floor on the
// shared mock, it says what Fastify itself adds to a search's cost (docs/benchmarks.md, fifteenth round).
//   node bench/floor-on-fastify.mjs PORT     (from the checkout; the mock listens on 127.0.0.1:9100)
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const port = Number(process.argv[2] ?? 8092);
// As the floor: one pool for the one mock origin, at most 512 connections.
const agent = new Agent({ connections: 512 });
const MOCK = 'http://127.0.0.1:9100/engine';
const engines = ['brave', 'tavily', 'exa', 'searxng'];

const app = Fastify({ logger: false });
app.get('/search', async (req) => {
  const q = typeof req.query.q === 'string' ? req.query.q : '';
  const lists = await Promise.all(
    engines.map(async (engine) => {
      const response = await request(`${MOCK}/${engine}/search?q=${encodeURIComponent(q)}`, { dispatcher: agent });
      const body = await response.body.json();
      return engine === 'brave' ? body.web.results : body.results;
    }),
  );
  const seen = new Set();
  const results = [];
  for (const list of lists) {
    for (const item of list) {
      if (seen.has(item.url)) continue;
      seen.add(item.url);
      results.push(item);
    }
  }
  return { query: q, results: results.slice(0, 10) };
});
await app.listen({ port, host: '127.0.0.1' });
