// Shared by the end-to-end test and the browser benchmark: a static server for dist/ on
// 127.0.0.1 and Debian's Chromium driven by playwright-core (which never downloads a browser).
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { homedir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { host as staticHost } from '../scripts/host.mjs';

export const tools = process.env.BARRIERSCOPE_TOOLS || join(homedir(), '.local/share/barrierscope-tools');
const require = createRequire(join(tools, 'node_modules', 'noop.js'));
export const { chromium } = require('playwright-core');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.webmanifest': 'application/manifest+json',
};

/** Serves `dir` on 127.0.0.1 at a free port; resolves to { url, close }. With `gzip`, a client
 * that accepts gzip gets each file compressed (level 9, as the size figures count it); without,
 * every file goes as it is; either way `cache-control: no-store`, so that every load and reload
 * fetches the page afresh. With `host`, the page goes with the headers the book asks of a static
 * host (scripts/host.mjs: hashed files immutable, the rest no-cache, Brotli or gzip); `log(line)`
 * then hears of each request. */
export async function serve(dir, { gzip = false, host = false, log } = {}) {
  if (host) return staticHost(dir, { log });
  const root = normalize(dir);
  const packed = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        if (!packed.has(file)) packed.set(file, gzipSync(body, { level: 9 }));
        res.writeHead(200, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' });
        res.end(packed.get(file));
        return;
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }) };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // The soak in the browser benchmark reads the JS heap after a forced collection.
      '--js-flags=--expose-gc', '--enable-precise-memory-info'],
  });
}

// The bench's render figure, on a page just opened: keyed-shuffle, aligned, 150 records per
// partition all read (300 in flight), then 60 steps by the → key, each timed until the canvas has
// laid out. Returns the 60 times in ms.
export async function renderSteps(page) {
  await page.waitForSelector('#app[data-ready="true"]');
  await page.selectOption('#sel-job', 'keyed-shuffle');
  await page.selectOption('#sel-strategy', 'aligned');
  await page.click('.more-settings summary');
  await page.fill('#inp-records', '150');
  await page.dispatchEvent('#inp-records', 'change');
  await page.click('.more-settings summary');
  await page.evaluate(() => {
    for (let i = 0; i < 150; i++) {
      for (const id of ['read-Source[0]', 'read-Source[1]']) {
        document.getElementById(id).dispatchEvent(new MouseEvent('click', { bubbles: true }));
      }
    }
  });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-channel]')]
    .reduce((n, c) => n + Number(c.dataset.queued), 0) === 300);
  return page.evaluate(async () => {
    const out = [];
    const key = () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      key();
      await new Promise((r) => setTimeout(r, 0));
      document.getElementById('canvas').getBoundingClientRect();
      document.body.offsetHeight;
      out.push(performance.now() - t0);
    }
    return out;
  });
}

// The check runner of the end-to-end files that run after e2e.mjs (rooms.mjs, stage.mjs): each
// check by name (E2E_ONLY=regex runs only the matching ones), its failure printed with its
// message, and the closing line "N passed, N failed".
export function checks() {
  let passed = 0;
  let failed = 0;
  const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
  async function check(name, fn) {
    if (only && !only.test(name)) return;
    try {
      await fn();
      passed++;
      console.log(`ok   ${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}\n     ${String(e && e.message || e).split('\n').join('\n     ')}`);
    }
  }
  function expect(cond, msg) { if (!cond) throw new Error(msg); }
  // Counts the page's errors as one failure, prints the closing line and exits.
  function finish(errors) {
    if (errors.length) {
      failed++;
      console.log(`FAIL the page raised no error\n     ${errors.slice(0, 5).join('\n     ')}`);
    }
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  }
  return { check, expect, finish };
}
