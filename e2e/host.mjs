// The static host's headers (issue 52, item 5) on the built page (dist/): node e2e/host.mjs
//   - the policy over every file in dist/: exactly one of the two cache classes each, every
//     content-hashed file immutable (and every asset the page names with an integrity hash),
//     index.html, sw.js, the manifest and the book no-cache, a known content type for each;
//   - `node scripts/host.mjs dist --port 0` as a visitor's browser meets it: index.html, sw.js, the
//     main wasm and JS, a room's part and the split loader, asked with `br, gzip`, `gzip` only,
//     Brotli refused and nothing: the cache-control, content-type, vary and content-encoding, and
//     the bytes, once decompressed, equal to the file; HEAD, a 304 on a matching ETag, 403 on
//     `..`, 404 on a missing file, a folder's redirect and index.html;
//   - headless Chromium through the host: the page becomes interactive, and a second visit and a
//     reload fetch no hashed file again (the browser's cache holds them) and revalidate the page
//     (a 304); with the service worker, the page still works offline.
// E2E_ONLY=regex runs the matching checks only. Exit code 1 on any failure.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve, launch, checks } from './lib.mjs';
import { policy, IMMUTABLE } from '../scripts/host.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = (process.env.DIST || join(root, 'dist')).replace(/\/$/, '');
const { check, expect, finish } = checks();
const errors = [];

async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...await walk(join(dir, e.name)));
    else out.push(join(dir, e.name));
  }
  return out;
}
const files = (await walk(dist)).map((f) => relative(dist, f)).sort();
const top = files.filter((f) => !f.includes('/'));
const html = await readFile(join(dist, 'index.html'), 'utf8');
const one = (re) => {
  const f = top.find((n) => re.test(n));
  if (!f) throw new Error(`no file in ${dist} matches ${re}`);
  return f;
};
const mainWasm = one(/^barrierscope-web-[0-9a-f]{1,16}_bg\.wasm$/);
const mainJs = one(/^barrierscope-web-[0-9a-f]{1,16}\.js$/);
const splitJs = one(/^__wasm_split-[0-9a-f]{1,16}\.js$/);
const part = one(/^split_[a-z_]+-[0-9a-f]{1,16}\.wasm$/);

await check(`the policy over the ${files.length} files in dist/: one cache class each, every hashed file immutable, index.html and sw.js no-cache`, async () => {
  const immutable = [];
  for (const f of files) {
    const h = policy(f, 'br, gzip');
    expect(h['cache-control'] === IMMUTABLE || h['cache-control'] === 'no-cache', `${f}: ${h['cache-control']}`);
    // A 16-hex-digit run before the extension (or before _bg) is the content hash trunk and
    // scripts/bin/wasm-bindgen write; nothing else may be cached for a year.
    const named = /-[0-9a-f]{1,16}(_bg)?\.[a-z]+$/.test(f.split('/').pop());
    expect(named === (h['cache-control'] === IMMUTABLE), `${f}: ${h['cache-control']} though its name ${named ? 'carries' : 'carries no'} hash`);
    if (named) immutable.push(f);
    if (!f.endsWith('.nojekyll')) expect(h['content-type'] !== 'application/octet-stream', `${f}: no known content type`);
  }
  for (const f of ['index.html', 'sw.js', 'manifest.webmanifest', 'favicon.svg', 'docs/index.html', 'docs/offline.html']) {
    expect(files.includes(f), `dist/ holds ${f}`);
    expect(policy(f)['cache-control'] === 'no-cache', `${f} is revalidated: ${policy(f)['cache-control']}`);
  }
  // Every asset the page names with an integrity hash, and every room's part, is immutable.
  const named = [...html.matchAll(/(?:href|src)="\.\/([^"]+)"[^>]*integrity=/g)].map((m) => m[1]);
  const parts = ((html.match(/<meta name="barrierscope-parts" content="([^"]*)"/) || [])[1] || '').split(' ').filter(Boolean).map((p) => p.replace(/^\.\//, ''));
  expect(named.length >= 3 && parts.length >= 5, `the page names its assets (${named.length}) and parts (${parts.length})`);
  for (const f of [...named, ...parts]) expect(immutable.includes(f), `${f}, which the page names, is immutable`);
  console.log(`     (${immutable.length} immutable, ${files.length - immutable.length} no-cache)`);
});

// The host as `bash scripts/serve.sh` runs it: its own process, on a free port.
const child = spawn(process.execPath, [join(root, 'scripts/host.mjs'), dist, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((ok, fail) => {
  let out = '';
  child.stdout.on('data', (d) => { out += d; const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//); if (m) ok(m[0]); });
  child.on('exit', (code) => fail(new Error(`host.mjs exited (${code}) before printing its address: ${out}`)));
});
const port = new URL(url).port;
// A raw request (node's http client sends the path as written: `..` stays in it).
function get(path, headers = {}, method = 'GET') {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}
const decode = (r) => (r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body)
  : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body);

const cases = [
  ['/', 'index.html', 'text/html; charset=utf-8', 'no-cache'],
  ['/index.html', 'index.html', 'text/html; charset=utf-8', 'no-cache'],
  ['/sw.js', 'sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
  [`/${mainWasm}`, mainWasm, 'application/wasm', IMMUTABLE],
  [`/${mainJs}`, mainJs, 'text/javascript; charset=utf-8', IMMUTABLE],
  [`/${part}`, part, 'application/wasm', IMMUTABLE],
  [`/${splitJs}`, splitJs, 'text/javascript; charset=utf-8', IMMUTABLE],
];
for (const [accept, want] of [['br, gzip', 'br'], ['gzip, deflate', 'gzip'], ['br;q=0, gzip', 'gzip'], [undefined, undefined]]) {
  await check(`the host answers ${accept === undefined ? 'no Accept-Encoding' : `accept-encoding: ${accept}`} with ${want || 'the files as they are'}, each file's cache-control and type, and the file's bytes`, async () => {
    for (const [path, file, type, cache] of cases) {
      const r = await get(path, accept === undefined ? {} : { 'accept-encoding': accept });
      expect(r.status === 200, `${path}: status ${r.status}`);
      expect(r.headers['cache-control'] === cache, `${path}: cache-control ${r.headers['cache-control']}, not ${cache}`);
      expect(r.headers['content-type'] === type, `${path}: content-type ${r.headers['content-type']}`);
      expect(r.headers.vary === 'accept-encoding', `${path}: vary ${r.headers.vary}`);
      expect(r.headers['content-encoding'] === want, `${path}: content-encoding ${r.headers['content-encoding']}, not ${want}`);
      expect(Number(r.headers['content-length']) === r.body.length, `${path}: content-length ${r.headers['content-length']} for ${r.body.length} bytes`);
      const bytes = await readFile(join(dist, file));
      expect(decode(r).equals(bytes), `${path}: the bytes, decompressed, are not the file's`);
      if (want) expect(r.body.length < bytes.length, `${path}: ${r.body.length} bytes compressed against ${bytes.length}`);
    }
  });
}

await check('HEAD has the headers and no body; a matching ETag gets a 304; an image goes as it is', async () => {
  const got = await get(`/${mainWasm}`, { 'accept-encoding': 'br' });
  const head = await get(`/${mainWasm}`, { 'accept-encoding': 'br' }, 'HEAD');
  expect(head.status === 200 && head.body.length === 0, `HEAD: ${head.status}, ${head.body.length} bytes`);
  for (const h of ['cache-control', 'content-type', 'content-encoding', 'content-length', 'etag', 'vary']) {
    expect(head.headers[h] === got.headers[h], `HEAD's ${h} ${head.headers[h]} against GET's ${got.headers[h]}`);
  }
  const again = await get(`/${mainWasm}`, { 'accept-encoding': 'br', 'if-none-match': got.headers.etag });
  expect(again.status === 304 && again.body.length === 0, `a matching ETag: ${again.status}`);
  const other = await get(`/${mainWasm}`, { 'accept-encoding': 'gzip', 'if-none-match': got.headers.etag });
  expect(other.status === 200 && other.headers['content-encoding'] === 'gzip', `the Brotli ETag does not match the gzip copy: ${other.status}`);
  const page = await get('/', { 'accept-encoding': 'gzip' });
  const revalidated = await get('/', { 'accept-encoding': 'gzip', 'if-none-match': page.headers.etag });
  expect(revalidated.status === 304 && revalidated.headers['cache-control'] === 'no-cache', `index.html revalidated: ${revalidated.status}`);
  const png = files.find((f) => f.endsWith('.png'));
  const img = await get(`/${png}`, { 'accept-encoding': 'br, gzip' });
  expect(img.status === 200 && img.headers['content-type'] === 'image/png' && !img.headers['content-encoding'], `${png}: ${img.status} ${img.headers['content-type']} ${img.headers['content-encoding']}`);
  expect(img.body.equals(await readFile(join(dist, png))), `${png}: the bytes`);
});

await check('`..` is refused (403), a missing file is 404, a folder redirects to its slash and serves its index.html', async () => {
  for (const path of ['/../Cargo.toml', '/..%2fCargo.toml', '/docs/../../Cargo.toml', '/%2e%2e/Cargo.toml']) {
    const r = await get(path);
    expect(r.status === 403, `${path}: ${r.status}`);
  }
  const missing = await get('/no-such-file.wasm');
  expect(missing.status === 404, `a missing file: ${missing.status}`);
  const folder = await get('/docs');
  expect(folder.status === 301 && folder.headers.location === '/docs/', `/docs: ${folder.status} to ${folder.headers.location}`);
  const book = await get('/docs/', { 'accept-encoding': 'gzip' });
  expect(book.status === 200 && decode(book).equals(await readFile(join(dist, 'docs/index.html'))), `/docs/: ${book.status}`);
  const post = await get('/', {}, 'POST');
  expect(post.status === 405, `POST: ${post.status}`);
});
child.kill();

// The browser: the same host in this process, so that each request it answers is seen.
const seen = [];
const srv = await serve(dist, { host: true, log: (line) => seen.push(line) });
const browser = await launch();

await check('in Chromium the page through the host becomes interactive; a second visit and a reload fetch no hashed file again and revalidate the page', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: 'block' });
  const pg = await context.newPage();
  pg.on('pageerror', (e) => errors.push(e.message));
  const encodings = new Map();
  pg.on('response', async (r) => { if (r.url().endsWith('.wasm')) encodings.set(r.url().split('/').pop(), (await r.allHeaders())['content-encoding']); });
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 30000 });
  await pg.waitForLoadState('networkidle');
  const first = seen.splice(0);
  expect(first.some((l) => l.startsWith(`GET /${mainWasm} 200`)), `the main wasm came from the host: ${first.join('; ')}`);
  const enc = encodings.get(mainWasm);
  expect(enc === 'br' || enc === 'gzip', `the main wasm went compressed: ${enc}`);
  console.log(`     (first visit: ${first.length} requests; the main wasm went ${enc})`);
  await pg.waitForTimeout(1000);
  seen.splice(0);
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 30000 });
  await pg.waitForLoadState('networkidle');
  const second = seen.splice(0);
  const refetched = second.filter((l) => /-[0-9a-f]{1,16}(_bg)?\.[a-z]+ /.test(l));
  expect(refetched.length === 0, `hashed files fetched again: ${refetched.join('; ')}`);
  expect(second.some((l) => /^GET \/ 304\b/.test(l)), `the page was revalidated with a 304: ${second.join('; ')}`);
  // And the page did use them: from the browser's cache, nothing transferred.
  const cached = await pg.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => /-[0-9a-f]{1,16}(_bg)?\.(wasm|js)$/.test(e.name)).map((e) => [e.name.split('/').pop(), e.transferSize]));
  expect(cached.some(([n]) => n === mainWasm) && cached.every(([, t]) => t === 0), `the hashed files came from the cache: ${JSON.stringify(cached)}`);
  console.log(`     (second visit: ${second.join('; ')}; ${cached.length} hashed files from the cache)`);
  // A reload, too, asks again for the page alone.
  await pg.reload();
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 30000 });
  await pg.waitForLoadState('networkidle');
  const reloaded = seen.splice(0);
  expect(!reloaded.some((l) => /-[0-9a-f]{1,16}(_bg)?\.[a-z]+ /.test(l)) && reloaded.some((l) => /^GET \/ 304\b/.test(l)),
    `a reload asks for the page alone: ${reloaded.join('; ')}`);
  await context.close();
});

await check('with the service worker, through the host, the page works offline after the first visit', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const pg = await context.newPage();
  pg.on('pageerror', (e) => errors.push(e.message));
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 30000 });
  await pg.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
  await pg.waitForFunction(async () => (await (await caches.open('barrierscope-v1')).keys()).some((r) => r.url.endsWith('_bg.wasm')), null, { timeout: 30000 });
  await context.setOffline(true);
  await pg.reload();
  await pg.waitForSelector('#app[data-ready="true"]', { timeout: 30000 });
  await pg.keyboard.press('ArrowRight');
  await pg.waitForFunction(() => document.querySelector('#app').dataset.step === '1', null, { timeout: 10000 });
  await context.close();
});

await browser.close();
await srv.close();
finish(errors);
