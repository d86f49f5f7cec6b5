// One Lighthouse audit (its default: a mobile phone, simulated throttling) of URL through
// its Node API, in Debian's Chromium driven by puppeteer-core, written to OUT as JSON.
// COOKIE (name=value) is set in the browser first: a table page is a seat's only with its
// seat cookie, and the page's own requests (its view, its socket) need it in the browser's
// jar: a Cookie header given to Lighthouse (--extra-headers) is lost once the server sets
// any cookie of its own. Lighthouse's storage reset would clear it, so a page given a
// cookie is audited without one (the browser is new: its cache is empty all the same).
//
//   node bench/lighthouse/run.mjs URL OUT.json [COOKIE]
import { writeFileSync } from "node:fs";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [url, out, cookie] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
});
try {
  const page = await browser.newPage();
  if (cookie) {
    const at = cookie.indexOf("=");
    await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), url,
                           httpOnly: true });
  }
  const result = await lighthouse(url, {
    output: "json", logLevel: "error", disableStorageReset: !!cookie,
    onlyCategories: ["performance", "accessibility", "best-practices"],
  }, undefined, page);
  writeFileSync(out, result.report);
} finally {
  await browser.close();
}
