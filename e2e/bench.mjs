// Browser benchmark of the built page (dist/). Prints figures; never passes or fails on a clock.
//   1. gzipped size of the shipped JS + wasm
//   2. time from navigation to an interactive page on localhost (median of 10 loads)
//   3. keyed-shuffle with 300 records in flight: median time of one step's render (60 steps)
//   4. engine steps per second in wasm, against the native criterion figure if it was measured
//      (`cargo bench --bench engine` first)
// Run: node e2e/bench.mjs   (after `trunk build --release`)
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { serve, launch } from './lib.mjs';

const root = new URL('..', import.meta.url).pathname;
const dist = root + 'dist/';
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

let total = 0;
for (const f of await readdir(dist)) {
  if (f.endsWith('.js') || f.endsWith('.wasm')) {
    const gz = gzipSync(await readFile(dist + f), { level: 9 }).length;
    total += gz;
    console.log(`size   ${f}: ${(gz / 1024).toFixed(1)} KB gzipped`);
  }
}
console.log(`size   shipped JS + wasm: ${(total / 1024).toFixed(1)} KB gzipped`);

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

const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
await page.goto(srv.url);
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
const times = await page.evaluate(async () => {
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
const inFlight = await page.evaluate(() => [...document.querySelectorAll('[data-channel]')].reduce((n, c) => n + Number(c.dataset.queued), 0));
console.log(`render keyed-shuffle, 300 records in flight: median ${median(times).toFixed(2)} ms per step (p90 ${[...times].sort((a, b) => a - b)[54].toFixed(2)} ms, 60 steps; ${inFlight} in flight at the end)`);

const runs = await page.evaluate(() => {
  const r = [];
  for (let i = 0; i < 5; i++) {
    window.wasmBindings.bench_engine_prepare(5000);
    const t0 = performance.now();
    const steps = window.wasmBindings.bench_engine_run();
    r.push(steps / ((performance.now() - t0) / 1000));
  }
  return r;
});
const wasmRate = median(runs);
console.log(`engine wasm: ${(wasmRate / 1e6).toFixed(2)} M steps/s (keyed-shuffle workload, median of 5)`);
try {
  const est = JSON.parse(await readFile(root + 'target/criterion/deliveries/engine steps, keyed-shuffle workload/new/estimates.json', 'utf8'));
  const bench = JSON.parse(await readFile(root + 'target/criterion/deliveries/engine steps, keyed-shuffle workload/new/benchmark.json', 'utf8'));
  const steps = bench.throughput.Elements;
  const nativeRate = steps / (est.mean.point_estimate / 1e9);
  console.log(`engine native: ${(nativeRate / 1e6).toFixed(2)} M steps/s (criterion); wasm reaches ${(100 * wasmRate / nativeRate).toFixed(0)} % of native`);
} catch {
  console.log('engine native: not measured yet; run `cargo bench --bench engine` for the comparison');
}
await browser.close();
await srv.close();
