// A/B of one step's render (the bench's keyed-shuffle, 300 records in flight, 60 steps), two
// built pages alternately, so that load on the machine falls on both alike.
// Run: node e2e/render-ab.mjs DIST_A DIST_B [rounds]
import { serve, launch, renderSteps } from './lib.mjs';
const [a, b, rounds = '4'] = process.argv.slice(2);
const sorted = (xs) => [...xs].sort((x, y) => x - y);
async function once(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(url);
  const times = await renderSteps(page);
  await page.close();
  return times;
}
const sa = await serve(a), sb = await serve(b);
const browser = await launch();
const all = { A: [], B: [] };
for (let r = 0; r < Number(rounds); r++) {
  for (const [k, s] of [['A', sa], ['B', sb]]) {
    const t = sorted(await once(browser, s.url));
    all[k].push(...t);
    console.log(`round ${r + 1} ${k}: median ${t[30].toFixed(2)} ms, p90 ${t[54].toFixed(2)} ms`);
  }
}
for (const k of ['A', 'B']) {
  const t = sorted(all[k]);
  console.log(`${k} (${k === 'A' ? a : b}): ${t.length} steps, median ${t[Math.floor(t.length / 2)].toFixed(2)} ms, p90 ${t[Math.floor(t.length * 0.9)].toFixed(2)} ms`);
}
await browser.close();
process.exit(0);
