// A/B of the engine in wasm: two built pages open side by side in one headless Chromium, the
// browser benchmark's run (`bench_engine_run`: the keyed-shuffle workload, 2 x 5,000 records)
// on each in turn, after a warm-up, so that load on the machine falls on both alike. Prints each
// page's median steps per second and the median of each pair's ratio (B over A).
// Run: node e2e/engine-ab.mjs DIST_A DIST_B [pairs]
import { serve, launch } from './lib.mjs';

const [a, b, pairs = '30'] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: node e2e/engine-ab.mjs DIST_A DIST_B [pairs]');
  process.exit(2);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const browser = await launch();
const servers = [];
const pages = [];
for (const dir of [a, b]) {
  const srv = await serve(dir);
  servers.push(srv);
  const page = await browser.newPage();
  await page.goto(srv.url);
  await page.waitForSelector('#app[data-ready="true"]');
  pages.push(page);
}
const run = (page) => page.evaluate(() => {
  window.wasmBindings.bench_engine_prepare(5000);
  const t0 = performance.now();
  const steps = window.wasmBindings.bench_engine_run();
  return steps / ((performance.now() - t0) / 1000);
});
// The warm-up: V8 tiers the wasm up from its baseline compiler while it runs.
for (const page of pages) for (let i = 0; i < 3; i++) await run(page);
const rates = [[], []];
const ratios = [];
for (let k = 0; k < Number(pairs); k++) {
  const r = [];
  for (const i of k % 2 ? [1, 0] : [0, 1]) {
    r[i] = await run(pages[i]);
    rates[i].push(r[i]);
  }
  ratios.push(r[1] / r[0]);
}
const m = (x) => (x / 1e6).toFixed(2);
[a, b].forEach((dir, i) => console.log(`${dir}: median ${m(median(rates[i]))} M steps/s (min ${m(Math.min(...rates[i]))}, max ${m(Math.max(...rates[i]))}, ${pairs} runs)`));
console.log(`B / A, pair by pair: median ${median(ratios).toFixed(3)} (min ${Math.min(...ratios).toFixed(3)}, max ${Math.max(...ratios).toFixed(3)})`);
await browser.close();
for (const srv of servers) await srv.close();
