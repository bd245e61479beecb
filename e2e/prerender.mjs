// The first screen before the wasm (issue 52, item 1), on the built page (dist/): node e2e/prerender.mjs
//   - with JavaScript off, the job's tasks are drawn, and the page says the simulator needs it;
//   - at a phone's, a narrow window's and a desk's width, exactly one copy shows, the one the app
//     draws for that width, and the app's own screen replaces it with no layout shift;
//   - a visitor whose last run was in Chinese sees the Chinese copy;
//   - a button pressed before the wasm has come is pressed once it has, and the notice says so;
//   - under slow 4G and poor Wi-Fi (with the CPU slowed 4×), when the job is first on screen and
//     when the page is ready (figures, printed; never asserted as times).
import { serve, launch } from './lib.mjs';

const dist = new URL('../dist', import.meta.url).pathname;
const srv = await serve(dist, { gzip: true });
const browser = await launch();
let failed = 0;
let passed = 0;
function expect(ok, msg) { if (!ok) throw new Error(msg); }
async function check(name, body) {
  try { await body(); passed++; console.log(`ok   ${name}`); } catch (e) { failed++; console.log(`FAIL ${name}\n     ${e.message}`); }
}

await check('with JavaScript off, the first screen shows the job drawn, and says the simulator needs JavaScript', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, javaScriptEnabled: false });
  const pg = await context.newPage();
  await pg.goto(srv.url);
  const shown = await pg.$$eval('.pre', (copies) => copies.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.className));
  expect(shown.length === 1 && shown[0] === 'pre pre-en pre-desk', `one copy shows, the desk's in English: ${JSON.stringify(shown)}`);
  const tasks = await pg.$$eval('.pre-en.pre-desk [data-task]', (ts) => ts.filter((t) => t.getBoundingClientRect().width > 0).map((t) => t.dataset.task));
  expect(tasks.length >= 3, `the job's tasks are drawn: ${JSON.stringify(tasks)}`);
  expect(await pg.isVisible('.noscript'), 'the page says the simulator needs JavaScript');
  expect(!(await pg.isVisible('#boot')), 'and not that it is starting');
  await pg.screenshot({ path: '/tmp/prerender-nojs-1366.png' });
  await context.close();
});

for (const [screen, width, height] of [['portrait', 390, 844], ['narrow', 800, 900], ['desk', 1366, 768]]) {
  await check(`at ${width}x${height} the ${screen} copy shows, and the app's own screen takes its place with no layout shift`, async () => {
    const context = await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' });
    const pg = await context.newPage();
    // Hold the main wasm back, to look at the copy alone.
    let release;
    const gate = new Promise((ok) => { release = ok; });
    await pg.route(/barrierscope-web-[0-9a-f]+_bg\.wasm$/, async (r) => { await gate; await r.continue(); });
    await pg.addInitScript(() => {
      window.__shifts = 0;
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
    });
    await pg.goto(srv.url);
    await pg.waitForSelector(`.pre-en.pre-${screen} [data-task]`);
    const shown = await pg.$$eval('.pre', (copies) => copies.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.className));
    expect(shown.length === 1 && shown[0] === `pre pre-en pre-${screen}`, `one copy shows: ${JSON.stringify(shown)}`);
    const box = async (sel) => pg.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round).join(','); });
    const before = { task: await box(`.pre-en.pre-${screen} [data-task]`), read: await box(`.pre-en.pre-${screen} [id^="read-"]`) };
    await pg.screenshot({ path: `/tmp/prerender-copy-${width}.png` });
    release();
    await pg.waitForSelector('#app[data-ready="true"]');
    expect(await pg.$('#prerender') === null && await pg.$('#boot') === null, 'the copy and the notice are gone');
    const after = { task: await box('#app [data-task]'), read: await box('#app [id^="read-"]') };
    expect(JSON.stringify(before) === JSON.stringify(after), `the first task and its read button stay where they were: ${JSON.stringify(before)} then ${JSON.stringify(after)}`);
    const shifts = await pg.evaluate(() => window.__shifts);
    expect(shifts < 0.01, `cumulative layout shift ${shifts}`);
    console.log(`     (${screen}: layout shift ${shifts.toFixed(4)})`);
    await context.close();
  });
}

await check('a visitor whose last run was in Chinese sees the Chinese copy, then the app in Chinese', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: 'block' });
  const pg = await context.newPage();
  await pg.goto(srv.url);
  await pg.waitForSelector('#app[data-ready="true"]');
  await pg.click('#btn-lang');
  await pg.click('[id^="read-"]');
  await pg.waitForFunction(() => (localStorage.getItem('barrierscope.run') || '').includes('"lang":"zh"'), null, { timeout: 15000 });
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await pg.route(/barrierscope-web-[0-9a-f]+_bg\.wasm$/, async (r) => { await gate; await r.continue(); });
  await pg.reload();
  await pg.waitForSelector('.pre-zh.pre-desk [data-task]');
  const shown = await pg.$$eval('.pre', (copies) => copies.filter((c) => getComputedStyle(c).display !== 'none').map((c) => c.className));
  expect(shown.length === 1 && shown[0] === 'pre pre-zh pre-desk', `the Chinese copy shows: ${JSON.stringify(shown)}`);
  expect((await pg.innerText('#boot')).trim() === '正在启动模拟器…', `the notice is in Chinese: ${await pg.innerText('#boot')}`);
  await pg.screenshot({ path: '/tmp/prerender-copy-zh-1366.png' });
  release();
  await pg.waitForSelector('#app[data-ready="true"][data-lang="zh"]');
  await context.close();
});

await check('a button pressed before the wasm has come is pressed once it has; the notice says so', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: 'block' });
  const pg = await context.newPage();
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await pg.route(/barrierscope-web-[0-9a-f]+_bg\.wasm$/, async (r) => { await gate; await r.continue(); });
  await pg.goto(srv.url);
  expect((await pg.innerText('#boot')).trim() === 'Starting the simulator…', `the notice before a press: ${await pg.innerText('#boot')}`);
  await pg.click('.pre-en.pre-desk [id^="read-"]');
  const notice = await pg.innerText('#boot');
  expect(/takes effect once it is ready/.test(notice), `the notice says the press waits: ${notice}`);
  release();
  await pg.waitForSelector('#app[data-ready="true"]');
  await pg.waitForFunction(() => document.querySelector('#app').dataset.step === '1', null, { timeout: 10000 });
  const step = await pg.$eval('#app', (a) => a.dataset.step);
  expect(step === '1', `the read was done once the page was ready: step ${step}`);
  await context.close();
});

// Figures: when the job is first on screen (the first contentful paint, which is the copy) and when
// the page is ready, on a throttled network and CPU, the page served gzipped. Printed, not asserted.
for (const [name, latency, kbps] of [['slow 4G (150 ms, 1.6 Mbps)', 150, 1600], ['poor Wi-Fi (400 ms, 400 kbit/s)', 400, 400]]) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
    const pg = await context.newPage();
    const cdp = await context.newCDPSession(pg);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: (kbps * 1000) / 8, uploadThroughput: (kbps * 1000) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await pg.addInitScript(() => {
      new MutationObserver((_, o) => {
        if (document.querySelector('#app[data-ready="true"]')) { window.__readyAt = performance.now(); o.disconnect(); }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
    });
    await pg.goto(srv.url);
    await pg.waitForSelector('#app[data-ready="true"]', { timeout: 120000 });
    const t = await pg.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: fcp ? fcp.startTime : NaN, ready: window.__readyAt };
    });
    times.push(t);
    await context.close();
  }
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`     ${name}, CPU 4x, phone: the job on screen ${(med(times.map((t) => t.fcp)) / 1000).toFixed(2)} s, ready ${(med(times.map((t) => t.ready)) / 1000).toFixed(2)} s (median of 3)`);
}

await browser.close();
await srv.close();
console.log(`\nprerender: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
