// Ad-hoc screenshots while developing: node e2e/shot.mjs [width] [height] [out.png] [keys...]
// A key is a key to press, click:SELECTOR, select:SELECTOR=VALUE or wait:SELECTOR.
import { serve, launch } from './lib.mjs';
const [w = '1920', h = '1080', out = '/tmp/shot.png', ...keys] = process.argv.slice(2);
const srv = await serve(new URL('../dist', import.meta.url).pathname);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: +w, height: +h } });
page.on('console', (m) => console.log('console:', m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(srv.url);
await page.waitForSelector('#app[data-ready="true"]', { timeout: 10000 });
for (const k of keys) {
  if (k.startsWith('click:')) await page.click(k.slice(6));
  else if (k.startsWith('wait:')) await page.waitForSelector(k.slice(5), { timeout: 15000 });
  else if (k.startsWith('select:')) { const [sel, val] = k.slice(7).split('='); await page.selectOption(sel, val); }
  else await page.keyboard.press(k);
  await page.waitForTimeout(60);
}
await page.waitForTimeout(400);
await page.screenshot({ path: out, fullPage: !!process.env.FULL });
await browser.close();
await srv.close();
console.log('saved', out);
