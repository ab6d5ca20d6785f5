import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

/** Writes openapi/openapi.json from the routes the service really registers (a test keeps it in step). */
export async function generateOpenApi(): Promise<string> {
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }));
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  return document;
}

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'openapi', 'openapi.json');
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const document = await generateOpenApi();
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, document);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
