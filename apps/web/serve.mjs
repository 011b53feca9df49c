#!/usr/bin/env node
// Serves the built lab (dist/) with the headers SharedArrayBuffer needs:
//   Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp.
// Usage: node serve.mjs [--port N] [--host H] [--no-isolation]   (PORT and HOST env vars work too; default 4173, localhost)
//   --no-isolation  serve without COOP/COEP, as a static host that cannot set headers would: the
//                   page is not cross-origin isolated, has no SharedArrayBuffer, and the lab runs in
//                   its fallback mode (one worker, same results, slower); embeds in other sites' pages too.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, 'dist');
const args = process.argv.slice(2);
const arg = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const port = Number(arg('--port') ?? process.env.PORT ?? 4173);
const host = arg('--host') ?? process.env.HOST ?? 'localhost';
const isolate = !args.includes('--no-isolation');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

export const ISOLATION_HEADERS = isolate
  ? {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'X-Content-Type-Options': 'nosniff',
    }
  : { 'X-Content-Type-Options': 'nosniff' };

async function fileFor(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  const full = normalize(join(root, p));
  if (full !== root && !full.startsWith(root + sep)) return null; // no path traversal
  try {
    const s = await stat(full);
    if (s.isFile()) return full;
    if (s.isDirectory()) {
      const index = join(full, 'index.html');
      if ((await stat(index).catch(() => null))?.isFile()) return index;
    }
  } catch {
    /* fall through */
  }
  // single-page app: unknown paths without an extension get the lab itself
  return extname(p) === '' ? join(root, 'index.html') : null;
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...ISOLATION_HEADERS, Allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await fileFor(req.url ?? '/');
  if (!file) {
    res.writeHead(404, { ...ISOLATION_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  try {
    const body = await readFile(file);
    const immutable = file.includes(`${sep}assets${sep}`);
    res.writeHead(200, {
      ...ISOLATION_HEADERS,
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(500, ISOLATION_HEADERS).end();
  }
});

server.on('error', (err) => {
  if (err.code === 'EADDRINUSE') console.error(`manycore lab: port ${port} is in use; set PORT to another port (PORT=4174 npm start)`);
  else console.error(`manycore lab: ${err.message}`);
  process.exit(1);
});

server.listen(port, host, () => {
  const addr = server.address();
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  console.log(`Manycore Lab is running at http://${shown}:${typeof addr === 'object' && addr ? addr.port : port}/`);
  console.log(
    isolate
      ? '(cross-origin isolated: COOP same-origin, COEP require-corp; Ctrl+C stops it)'
      : '(not cross-origin isolated (--no-isolation): the lab runs in its fallback mode, one worker, same results; Ctrl+C stops it)',
  );
});

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
