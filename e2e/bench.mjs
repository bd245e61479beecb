// Browser benchmark of the built page (dist/). Prints figures; never passes or fails on a clock.
//   1. gzipped sizes: the first visit's JS + wasm, each part that loads when opened, and all shipped;
//      the time to open each room the first time
//   2. time from navigation to an interactive page on localhost (median of 10 loads)
//   3. keyed-shuffle with 300 records in flight: median time of one step's render (60 steps), of
//      the canvas and of the space-time diagram's room
//   4. engine steps per second in wasm, against the native criterion figure if it was measured
//      (`cargo bench --bench engine` first)
//   5. the soak: 1,000,000 automatic steps of a session, its memory every 100,000 (exit 1 on an
//      error in the page or memory that keeps growing)
//   6. Lighthouse's scores with the desktop and the mobile preset (lighthouse@12.2.3, installed into
//      the tools folder on first use), on the page as the test server sends it (uncompressed) and
//      as a static host sends it (scripts/host.mjs: Brotli, hashed files cached for a year)
// Run: node e2e/bench.mjs   (after `trunk build --release`; DIST=dir for another built page,
// BENCH_ONLY=rooms to stop after the sizes, the load time and the rooms)
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serve, launch, tools, renderSteps } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = process.env.DIST ? process.env.DIST.replace(/\/?$/, '/') : root + 'dist/';
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

// Sizes: what the first visit fetches before it is interactive (the page's main JS and wasm, the
// split loader it imports, the boot script), each part that loads when opened, and all shipped.
const html = await readFile(dist + 'index.html', 'utf8');
const parts = ((html.match(/<meta name="barrierscope-parts" content="([^"]*)"/) || [])[1] || '').split(' ').filter(Boolean).map((p) => p.slice(2));
const gz = async (f) => gzipSync(await readFile(dist + f), { level: 9 }).length;
const kb = (b) => (b / 1024).toFixed(1);
let total = 0;
let first = 0;
for (const f of (await readdir(dist)).sort()) {
  if (!(f.endsWith('.js') || f.endsWith('.wasm'))) continue;
  const size = await gz(f);
  total += size;
  const part = parts.includes(f);
  if (!part && f !== 'sw.js') first += size;
  console.log(`size   ${part ? 'part ' : f === 'sw.js' ? 'idle ' : 'first'} ${f}: ${kb(size)} KB gzipped`);
}
console.log(`size   first visit, JS + wasm before interactive: ${kb(first)} KB gzipped`);
console.log(`size   everything shipped, JS + wasm: ${kb(total)} KB gzipped (${parts.length} parts)`);
console.log(`size   index.html, with the first screen prerendered (six copies): ${kb(await gz('index.html'))} KB gzipped`);
const srv = await serve(dist);
const browser = await launch();

const ready = [];
for (let i = 0; i < 10; i++) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (document.querySelector('#app[data-ready="true"]')) { window.__readyAt = performance.now(); obs.disconnect(); }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(srv.url);
  await page.waitForSelector('#app[data-ready="true"]');
  ready.push(await page.evaluate(() => window.__readyAt));
  await ctx.close();
}
console.log(`load   navigation to interactive: median ${median(ready).toFixed(0)} ms (min ${Math.min(...ready).toFixed(0)}, max ${Math.max(...ready).toFixed(0)}, 10 loads)`);

// The main thread while the page starts (issue 52, item 4: the app's first render under 50 ms):
// the long tasks (over 50 ms, the browser's own PerformanceObserver) from navigation to half a
// second after ready, on this machine and with the CPU slowed 4x as Lighthouse's mobile preset
// does; the blocking time is what each long task has over 50 ms, summed, as Lighthouse counts it.
for (const slow of [1, 4]) {
  const longest = [];
  const blocking = [];
  for (let i = 0; i < 5; i++) {
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    if (slow > 1) await (await ctx.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: slow });
    await page.addInitScript(() => {
      window.__long = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); })
        .observe({ type: 'longtask', buffered: true });
      new MutationObserver((_, obs) => {
        if (document.querySelector('#app[data-ready="true"]')) { window.__readyAt = performance.now(); obs.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(srv.url);
    await page.waitForSelector('#app[data-ready="true"]');
    await page.waitForTimeout(500 * slow);
    const tasks = await page.evaluate(() => window.__long.filter(([at]) => at <= window.__readyAt + 500).map(([, d]) => d));
    longest.push(Math.max(0, ...tasks));
    blocking.push(tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0));
    await ctx.close();
  }
  const over = longest.filter((d) => d > 50).length;
  console.log(`main   starting${slow > 1 ? `, CPU ${slow}x slower` : ''}: the longest task median ${median(longest).toFixed(0)} ms (max ${Math.max(...longest).toFixed(0)}), over 50 ms in ${over} of 5 loads; blocking time median ${median(blocking).toFixed(0)} ms`);
}

// Opening each room the first time (its part fetched from localhost), 5 fresh pages each.
{
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const probe = await ctx.newPage();
  await probe.goto(srv.url);
  await probe.waitForSelector('#app[data-ready="true"]');
  const rooms = await probe.$$eval('.rooms-menu button', (bs) => bs.map((b) => b.id.replace(/^open-/, '')));
  await ctx.close();
  // A fresh page, a second after it is interactive (the narration's words, fetched 250 ms after
  // ready, are in), the click on the room's button: the time until the room is drawn and the wasm
  // files fetched from the click on (the room's and the saved runs' part, which a room's link
  // brings). Then the same with the pointer resting on the button for 200 ms before the click.
  async function open(id, rest) {
    const c = await browser.newContext({ serviceWorkers: 'block' });
    const p = await c.newPage();
    await p.goto(srv.url);
    await p.waitForSelector('#app[data-ready="true"]');
    await p.waitForTimeout(1000);
    const fetched = new Set();
    p.on('request', (r) => { if (r.url().endsWith('.wasm')) fetched.add(r.url()); });
    if (rest) { await p.hover(`#open-${id}`); await p.waitForTimeout(rest); }
    const t0 = Date.now();
    await p.click(`#open-${id}`);
    await p.waitForSelector(`#room-${id}[data-loaded="true"]`);
    const took = Date.now() - t0;
    await c.close();
    return [took, fetched.size];
  }
  for (const id of rooms) {
    for (const rest of [0, 200]) {
      const times = [];
      let files = 0;
      for (let i = 0; i < 5; i++) [times[i], files] = await open(id, rest);
      console.log(`room   ${id}: opened the first time in median ${median(times)} ms (min ${Math.min(...times)}, max ${Math.max(...times)}, 5 fresh pages)` +
        (rest ? ` after the pointer rested ${rest} ms on its button` : `, ${files} wasm file(s) fetched`));
    }
  }
}
if (process.env.BENCH_ONLY === 'rooms') { await browser.close(); srv.close(); process.exit(0); }

const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
await page.goto(srv.url);
const times = await renderSteps(page);
const inFlight = await page.evaluate(() => [...document.querySelectorAll('[data-channel]')].reduce((n, c) => n + Number(c.dataset.queued), 0));
console.log(`render keyed-shuffle, 300 records in flight: median ${median(times).toFixed(2)} ms per step (p90 ${[...times].sort((a, b) => a - b)[54].toFixed(2)} ms, 60 steps; ${inFlight} in flight at the end)`);

// The same run with the space-time diagram open (its room covers the canvas): one step, by the
// room's Step button, until the diagram is drawn again.
{
  const pg = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await pg.goto(srv.url);
  await renderSteps(pg);
  await pg.keyboard.press('d');
  await pg.waitForSelector('#st-svg');
  const st = await pg.evaluate(async () => {
    const out = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      document.getElementById('st-step').dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 0));
      document.getElementById('st-svg').getBoundingClientRect();
      document.body.offsetHeight;
      out.push(performance.now() - t0);
    }
    return out;
  });
  const arrows = await pg.$$eval('.st-arrow', (a) => a.length);
  console.log(`render keyed-shuffle with the space-time diagram open: median ${median(st).toFixed(2)} ms per step (p90 ${[...st].sort((a, b) => a - b)[54].toFixed(2)} ms, 60 steps; ${arrows} arrows drawn)`);
  await pg.close();
}

// After a warm-up, as criterion warms up the native run: V8 first runs the wasm in its baseline
// compiler and tiers up to the optimising one while it runs (the first runs measured up to a third
// slower on 2026-12-07).
const runs = await page.evaluate(() => {
  const r = [];
  for (let i = -3; i < 5; i++) {
    window.wasmBindings.bench_engine_prepare(5000);
    const t0 = performance.now();
    const steps = window.wasmBindings.bench_engine_run();
    if (i >= 0) r.push(steps / ((performance.now() - t0) / 1000));
  }
  return r;
});
const wasmRate = median(runs);
console.log(`engine wasm: ${(wasmRate / 1e6).toFixed(2)} M steps/s (keyed-shuffle workload, median of 5 after 3 warm-up runs)`);
try {
  const est = JSON.parse(await readFile(root + 'target/criterion/deliveries/engine steps, keyed-shuffle workload/new/estimates.json', 'utf8'));
  const bench = JSON.parse(await readFile(root + 'target/criterion/deliveries/engine steps, keyed-shuffle workload/new/benchmark.json', 'utf8'));
  const steps = bench.throughput.Elements;
  const nativeRate = steps / (est.mean.point_estimate / 1e9);
  console.log(`engine native: ${(nativeRate / 1e6).toFixed(2)} M steps/s (criterion); wasm reaches ${(100 * wasmRate / nativeRate).toFixed(0)} % of native`);
} catch {
  console.log('engine native: not measured yet; run `cargo bench --bench engine` for the comparison');
}

// The soak: a session left playing for 1,000,000 automatic steps (keyed-shuffle, aligned
// checkpoints every 500 steps, a crash and a restore every 5,000, a new run when one ends). The
// JS heap (after a forced collection) and the wasm memory every 100,000 steps must level off.
const soakErrors = [];
page.on('pageerror', (e) => soakErrors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') soakErrors.push(m.text()); });
const curve = [];
const soakStart = Date.now();
for (let k = 1; k <= 10; k++) {
  const sample = await page.evaluate(() => {
    const runs = window.wasmBindings.soak_steps(100000);
    if (window.gc) window.gc();
    return { runs, heap: performance.memory.usedJSHeapSize, wasm: window.wasmBindings.wasm_memory_bytes() };
  });
  curve.push({ steps: k * 100000, ...sample });
}
const mb = (b) => (b / 1048576).toFixed(1);
console.log(`soak   1,000,000 steps in ${((Date.now() - soakStart) / 1000).toFixed(0)} s, ${curve[9].runs} runs; memory every 100,000 steps:`);
const top = Math.max(...curve.map((c) => c.wasm));
for (const c of curve) {
  const bar = '#'.repeat(Math.round(40 * c.wasm / top));
  console.log(`soak   ${String(c.steps).padStart(7)}  wasm ${mb(c.wasm).padStart(6)} MB  JS heap ${mb(c.heap).padStart(5)} MB  ${bar}`);
}
// The same, drawn: 3,000 steps through the page itself (the → key, X and R every 500 steps, a new
// run when one ends), with the JS heap and the page's element count every 500 steps.
const drawn = await page.evaluate(async () => {
  const key = (k) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  const out = [];
  for (let i = 1; i <= 3000; i++) {
    if (i % 500 === 0) { key('x'); await new Promise((r) => setTimeout(r, 0)); key('r'); } else key('ArrowRight');
    await new Promise((r) => setTimeout(r, 0));
    if (document.getElementById('btn-reset') && document.querySelector('#btn-step[disabled]')) document.getElementById('btn-reset').click();
    if (i % 500 === 0) { if (window.gc) window.gc(); out.push({ steps: i, heap: performance.memory.usedJSHeapSize, nodes: document.getElementsByTagName('*').length }); }
  }
  return out;
});
for (const d of drawn) console.log(`soak   drawn ${String(d.steps).padStart(5)} steps  JS heap ${mb(d.heap).padStart(5)} MB  ${d.nodes} elements`);
const drawnGrew = drawn[5].heap - drawn[2].heap;
const half = curve[4];
const grewWasm = curve[9].wasm - half.wasm;
const grewHeap = curve[9].heap - half.heap;
console.log(`soak   growth over the second 500,000 steps: wasm ${mb(grewWasm)} MB, JS heap ${mb(grewHeap)} MB; errors ${soakErrors.length}`);
await browser.close();

// Lighthouse (pinned: 13 wants Node 22) against the local Chromium, on the served page.
const LIGHTHOUSE = '12.2.3';
const lhDir = tools + '/node_modules/lighthouse';
if (!existsSync(lhDir) || JSON.parse(await readFile(lhDir + '/package.json', 'utf8')).version !== LIGHTHOUSE) {
  console.log(`lighthouse: installing lighthouse@${LIGHTHOUSE} into ${tools}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', `lighthouse@${LIGHTHOUSE}`], { cwd: tools, stdio: 'inherit' });
}
const { default: lighthouse } = await import(pathToFileURL(lhDir + '/core/index.js'));
const { launch: launchChrome } = await import(pathToFileURL(tools + '/node_modules/chrome-launcher/dist/index.js'));
const chrome = await launchChrome({ chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
// The desktop preset (a laptop or a projector's computer: simulated 10 Mbit/s, 40 ms) and the
// mobile one (a phone on slow 4G, a slowed CPU: Lighthouse's default).
const { default: desktop } = await import(pathToFileURL(lhDir + '/core/config/desktop-config.js'));
// Each preset twice: on the test server, which sends every file as it is (the figures before
// 2026-12-04 were measured so), and with a static host's headers (scripts/host.mjs, the book's
// "Hosting the page": Brotli for a browser that accepts it, else gzip; from 2026-12-04 to
// 2026-12-07 this pair ran on the test server gzipping, level 9). The size budgets above count
// gzip level 9 bytes all the same.
const hostSrv = await serve(dist, { host: true });
const audits = [['desktop', desktop, srv], ['mobile', undefined, srv], ['desktop, as a host sends it', desktop, hostSrv], ['mobile, as a host sends it', undefined, hostSrv]];
try {
  for (const [name, config, server] of audits) {
    const lh = await lighthouse(server.url, { port: chrome.port, output: 'json', logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] }, config);
    const cats = lh.lhr.categories;
    console.log(`lighthouse (${name}) ` + Object.values(cats).map((c) => `${c.title} ${Math.round(c.score * 100)}`).join(', '));
    const a = lh.lhr.audits;
    console.log(`lighthouse (${name})   first contentful paint ${a['first-contentful-paint'].displayValue}, largest ${a['largest-contentful-paint'].displayValue}, total blocking ${a['total-blocking-time'].displayValue}`);
    for (const c of Object.values(cats)) {
      for (const ref of c.auditRefs) {
        const au = a[ref.id];
        if (ref.weight > 0 && au.score !== null && au.score < 0.9) console.log(`lighthouse   ${c.title}: ${au.title} (${au.displayValue || Math.round(au.score * 100)})`);
      }
    }
  }
} finally {
  await chrome.kill();
}
await srv.close();
await hostSrv.close();
if (soakErrors.length || grewWasm > 0.05 * half.wasm || grewHeap > 0.25 * half.heap || drawnGrew > 0.25 * drawn[2].heap) {
  console.log('soak   FAILED: ' + (soakErrors.length ? soakErrors.slice(0, 3).join('; ') : 'memory keeps growing'));
  process.exit(1);
}
