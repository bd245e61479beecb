// A static host for the built page (dist/) with the headers the book's "Hosting the page"
// (docs/src/hosting.md) asks of any host, and nothing but node's standard library:
//   - a content-hashed file (a 16-hex-digit hash before the extension, as trunk and
//     scripts/bin/wasm-bindgen name them: barrierscope-web-<hash>_bg.wasm, split_<room>-<hash>.wasm)
//     never changes under its name: `cache-control: public, max-age=31536000, immutable`;
//   - every other file (index.html, sw.js, the manifest, the book) is revalidated on each use:
//     `cache-control: no-cache`, with an ETag, so an unchanged file costs a 304 and a new deploy is
//     seen at once, never half old and half new;
//   - the text and wasm files compressed: Brotli (quality 11) where the request's Accept-Encoding
//     allows it, else gzip (level 9), else as they are, with `vary: accept-encoding`; the
//     compressed bytes kept in memory.
// Path traversal is refused (403), a missing file is 404, a folder serves its index.html, HEAD is
// answered. `bash scripts/serve.sh` runs it on the page it builds; e2e/lib.mjs's
// `serve(dir, { host: true })` uses it for the benchmark and e2e/host.mjs tests it.
// Run: node scripts/host.mjs [dist] [--port 8080] [--address 127.0.0.1] [--log]; with --sizes it
// prints what it would send of the page instead (as it is, gzip 9, Brotli 11) and exits.
import { createServer } from 'node:http';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompress, gzip, constants } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.png': 'image/png', '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8', '.woff2': 'font/woff2', '.woff': 'font/woff',
};
/** The types worth compressing: text and wasm (PNG and fonts are compressed already). */
export const COMPRESSIBLE = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json', '.webmanifest', '.txt']);
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Whether a file's name carries its content's hash: `name-<16 hex digits>[_bg].ext`. */
export function hashed(path) {
  return /-[0-9a-f]{1,16}(?:_bg)?\.[a-z0-9]+$/.test(basename(path));
}

/** The encoding to send for a request's Accept-Encoding: 'br', 'gzip' or null (as it is). A coding
 * listed with q=0 is refused; `*` stands for any coding not listed. */
export function encoding(acceptEncoding = '') {
  const q = new Map();
  for (const item of String(acceptEncoding).toLowerCase().split(',')) {
    const [name, ...params] = item.trim().split(';').map((s) => s.trim());
    if (!name) continue;
    const qp = params.find((p) => p.startsWith('q='));
    q.set(name, qp ? Number(qp.slice(2)) || 0 : 1);
  }
  const accepts = (c) => (q.has(c) ? q.get(c) > 0 : (q.get('*') || 0) > 0);
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/** The host's policy: the headers for the file at `path` (a name or a path inside dist/) asked for
 * with this Accept-Encoding. */
export function policy(path, acceptEncoding = '') {
  const ext = extname(path).toLowerCase();
  const headers = {
    'content-type': TYPES[ext] || 'application/octet-stream',
    'cache-control': hashed(path) ? IMMUTABLE : REVALIDATE,
    'x-content-type-options': 'nosniff',
  };
  if (COMPRESSIBLE.has(ext)) {
    headers.vary = 'accept-encoding';
    const enc = encoding(acceptEncoding);
    if (enc) headers['content-encoding'] = enc;
  }
  return headers;
}

/** The request handler for `dir`; `log(line)` is called once per answered request. */
export function createHost(dir, { log } = {}) {
  const root = resolve(dir);
  // Each file's bytes, ETag (from its content) and compressed forms (promises, shared by
  // concurrent requests), by path; read again when its modification time or size changes (a
  // rebuild under the host).
  const files = new Map();
  async function load(file, st) {
    const stamp = `${st.mtimeMs}:${st.size}`;
    let entry = files.get(file);
    if (!entry || entry.stamp !== stamp) {
      const body = await readFile(file);
      entry = { stamp, body, tag: createHash('sha256').update(body).digest('base64url').slice(0, 22), packed: new Map() };
      files.set(file, entry);
    }
    return entry;
  }
  function pack(entry, enc, text) {
    if (!entry.packed.has(enc)) {
      entry.packed.set(enc, enc === 'br'
        ? brotli(entry.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
          [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length } })
        : gz(entry.body, { level: 9 }));
    }
    return entry.packed.get(enc);
  }

  return async function handle(req, res) {
    const end = (status, headers = {}, body) => {
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      if (log) log(`${req.method} ${req.url} ${status}${headers['content-encoding'] ? ' ' + headers['content-encoding'] : ''}`);
    };
    const plain = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': REVALIDATE };
    if (req.method !== 'GET' && req.method !== 'HEAD') { end(405, { ...plain, allow: 'GET, HEAD' }, 'method not allowed\n'); return; }
    // The raw path, decoded: a `..` segment is refused before anything is resolved.
    let path;
    try {
      path = decodeURIComponent(req.url.split(/[?#]/)[0]);
    } catch {
      end(400, plain, 'bad request\n');
      return;
    }
    if (!path.startsWith('/') || path.includes('\0') || path.split(/[\\/]/).includes('..')) { end(403, plain, 'forbidden\n'); return; }
    let file = resolve(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) { end(403, plain, 'forbidden\n'); return; }
    try {
      let st = await stat(file);
      if (st.isDirectory()) {
        // A folder without its slash: redirect, or the page's relative URLs would miss.
        if (!path.endsWith('/')) { end(301, { ...plain, location: encodeURI(path) + '/' }, 'moved\n'); return; }
        file = join(file, 'index.html');
        st = await stat(file);
      }
      if (!st.isFile()) throw new Error('not a file');
      const entry = await load(file, st);
      const headers = policy(file, req.headers['accept-encoding']);
      const enc = headers['content-encoding'];
      headers.etag = `"${entry.tag}${enc ? '-' + enc : ''}"`;
      const ifNoneMatch = req.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === headers.etag || t === '*')) {
        const { 'content-type': _type, ...kept } = headers;
        end(304, kept);
        return;
      }
      const body = enc ? await pack(entry, enc, !file.endsWith('.wasm')) : entry.body;
      end(200, { ...headers, 'content-length': body.length }, body);
    } catch (e) {
      if (res.headersSent) { res.destroy(e); return; }
      end(404, plain, 'not found\n');
    }
  };
}

/** What the host sends of `dir`, in bytes as they are, gzipped (level 9) and in Brotli (quality 11):
 * the first visit's JS + wasm (what the page fetches before it is interactive: every top-level .js
 * and .wasm but the rooms' parts, which the page lists in <meta name="barrierscope-parts">, and
 * sw.js, fetched once the page is idle; as e2e/bench.mjs counts it), every room's part, all the JS
 * + wasm shipped, index.html, and every file in dir/ (a file the host does not compress counts as
 * it is). */
export async function sizes(dir) {
  const root = resolve(dir);
  const html = await readFile(join(root, 'index.html'), 'utf8');
  const parts = ((html.match(/<meta name="barrierscope-parts" content="([^"]*)"/) || [])[1] || '')
    .split(' ').filter(Boolean).map((p) => p.replace(/^\.\//, ''));
  const walk = async (d) => (await Promise.all((await readdir(d, { withFileTypes: true }))
    .map((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)])))).flat();
  const groups = { first: [0, 0, 0, 0], parts: [0, 0, 0, 0], shipped: [0, 0, 0, 0], index: [0, 0, 0, 0], all: [0, 0, 0, 0] };
  for (const file of (await walk(root)).sort()) {
    const name = file.slice(root.length + 1);
    const body = await readFile(file);
    const packs = COMPRESSIBLE.has(extname(name).toLowerCase());
    const row = [1, body.length,
      packs ? (await gz(body, { level: 9 })).length : body.length,
      packs ? (await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: name.endsWith('.wasm') ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT } })).length : body.length];
    const add = (g) => { for (let i = 0; i < 4; i++) groups[g][i] += row[i]; };
    add('all');
    if (name === 'index.html') add('index');
    if (!name.includes('/') && (name.endsWith('.js') || name.endsWith('.wasm'))) {
      add('shipped');
      if (parts.includes(name)) add('parts');
      else if (name !== 'sw.js') add('first');
    }
  }
  return groups;
}

/** Serves `dir` with the host's headers on `address`:`port` (0: a free port); resolves to
 * { url, close, handle }. */
export async function host(dir, { port = 0, address = '127.0.0.1', ...options } = {}) {
  const handle = createHost(dir, options);
  const server = createServer(handle);
  await new Promise((ok, fail) => { server.once('error', fail); server.listen(port, address, ok); });
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${server.address().port}/`;
  return { url, handle, close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let dir = resolve(fileURLToPath(new URL('../dist', import.meta.url)));
  let port = 8080;
  let address = '127.0.0.1';
  let log = false;
  let sizesOnly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--port') port = Number(args[++i]);
    else if (a === '--address') address = args[++i];
    else if (a === '--log') log = true;
    else if (a === '--sizes') sizesOnly = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: node scripts/host.mjs [dist] [--port 8080] [--address 127.0.0.1] [--log]\n' +
        '       node scripts/host.mjs [dist] --sizes   (what the host sends: as it is, gzip 9, Brotli 11)');
      process.exit(0);
    } else if (a.startsWith('-')) { console.error(`host.mjs: unknown option ${a}`); process.exit(2); } else dir = resolve(a);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) { console.error('host.mjs: --port takes 0 to 65535'); process.exit(2); }
  try {
    if (!(await stat(join(dir, 'index.html'))).isFile()) throw new Error();
  } catch {
    console.error(`host.mjs: no index.html in ${dir} (build the page first: trunk build --release)`);
    process.exit(1);
  }
  if (sizesOnly) {
    const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
    const names = { first: 'first visit, JS + wasm before interactive', parts: "the rooms' parts", shipped: 'everything shipped, JS + wasm',
      index: 'index.html', all: 'every file in dist/ (the book too)' };
    console.log(`sizes of ${dir}: as it is, gzip level 9, Brotli quality 11`);
    for (const [g, [n, raw, gzipped, br]] of Object.entries(await sizes(dir))) {
      console.log(`  ${names[g].padEnd(44)} ${String(n).padStart(3)} file${n === 1 ? " " : "s"} ${kb(raw).padStart(10)}  gzip ${kb(gzipped).padStart(9)}  br ${kb(br).padStart(9)}  (br ${((100 * br) / gzipped).toFixed(1)} % of gzip)`);
    }
    process.exit(0);
  }
  const srv = await host(dir, { port, address, log: log ? (line) => console.log(line) : undefined });
  console.log(`Serving ${dir} at ${srv.url} (hashed files immutable, the rest no-cache; Brotli or gzip). Ctrl-C stops.`);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => srv.close().then(() => process.exit(0)));
}
