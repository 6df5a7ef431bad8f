/**
 * The web console's files (dist/web, built by `npm run build`), served from the package with a strict
 * Content-Security-Policy, and index.html for the console's own client routes so a reload or bookmark works.
 * Only files found in the build folder are served: a request path is looked up, never joined onto a disk path.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MiddlewareHandler } from 'hono';

/** dist/web of this package: three levels up from both src/surfaces/http and dist/surfaces/http. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

/**
 * Scripts, styles, fonts and images from this origin only, no inline code, and the API as the only place
 * the page may talk to. No framing, no forms posting elsewhere, no <base> rewriting.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Pages of the console a browser may open directly; everything else falls through to the API's 404. */
export const CLIENT_ROUTES =
  /^\/(?:review|memories(?:\/mem_[0-9a-z]{22})?|commitments|summaries(?:\/[a-z0-9][a-z0-9._-]{0,63})?|behaviors|audit|erase|workspaces(?:\/agent(?::|%3A)[A-Za-z0-9._@+%-]{1,200})?|signin)?\/?$/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface StaticFile {
  body: Uint8Array;
  type: string;
  /** Hashed build output under /assets never changes under its name. */
  immutable: boolean;
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>memledger</title>
<p>The memledger console is not built. Run <code>npm run build</code>, then restart <code>memledger serve</code>.
The API is served under <a href="/openapi.json">/v1</a>.</p>`;

/**
 * Middleware that answers GET and HEAD for console files and client routes and passes everything else on.
 * Files are read once, on the first console request.
 */
export function consoleFiles(dir: string = CONSOLE_DIR): MiddlewareHandler {
  let files: Map<string, StaticFile> | undefined;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const path = c.req.path;
    files ??= loadFiles(dir);
    const file = files.get(path) ?? (CLIENT_ROUTES.test(path) ? files.get('/index.html') : undefined);
    if (file === undefined) {
      if (!CLIENT_ROUTES.test(path)) return next();
      return respond(new TextEncoder().encode(NOT_BUILT), TYPES['.html']!, 'no-store', 503);
    }
    return respond(
      file.body,
      file.type,
      file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      200,
    );
  };
}

function respond(body: Uint8Array, type: string, cache: string, status: number): Response {
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status,
    headers: {
      'content-type': type,
      'cache-control': cache,
      'content-security-policy': CONSOLE_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    },
  });
}

/** Every file under the build folder by its URL path; an unknown extension is not served. */
function loadFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(join(dir, 'index.html'))) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const type = TYPES[extname(entry.name).toLowerCase()];
    if (type === undefined) continue;
    const url = `/${relative(dir, full).split(sep).join('/')}`;
    files.set(url, { body: readFileSync(full), type, immutable: url.startsWith('/assets/') });
  }
  return files;
}
