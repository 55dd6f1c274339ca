'use strict';
// Signs in to the dashboard as a person would: opens DASHBOARD_URL in Chromium with no token, expects the OpenID
// Connect provider's sign-in form (Keycloak's), fills in USERNAME and PASSWORD, and expects to land back on the live
// page, whose stream and compaction panel then answer through the session (the panel's call to queue-service carries
// the signed-in person's token). Prints one JSON line; exits 1 on the first check that fails.
//
// Environment: DASHBOARD_URL, PROVIDER_URL (the provider's base URL), USERNAME, PASSWORD, CHROMIUM, SCREENSHOTS.
const fs = require('fs');
const path = require('path');
const { env, launch } = require('./chromium');

const shots = env('SCREENSHOTS');
fs.mkdirSync(shots, { recursive: true });

async function main() {
  const browser = await launch();
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  try {
    await page.goto(env('DASHBOARD_URL'));
    if (!page.url().startsWith(env('PROVIDER_URL'))) throw new Error(`not sent to the provider but to ${page.url()}`);
    await page.waitForSelector('#username', { timeout: 30000 });
    await page.screenshot({ path: path.join(shots, 'sign-in-form.png'), fullPage: true });
    await page.fill('#username', env('USERNAME'));
    await page.fill('#password', env('PASSWORD'));
    await Promise.all([page.waitForURL((u) => u.toString().startsWith(env('DASHBOARD_URL')), { timeout: 30000 }),
      page.click('#kc-login')]);
    await page.waitForSelector('#status[data-version]', { timeout: 30000 });
    await page.waitForSelector('#compaction-summary', { timeout: 15000 });
    const summary = await page.textContent('#compaction-summary');
    await page.screenshot({ path: path.join(shots, 'signed-in.png'), fullPage: true });
    console.log(JSON.stringify({ landedOn: page.url(), compaction: summary }));
  } catch (e) {
    await page.screenshot({ path: path.join(shots, 'failed-sign-in.png'), fullPage: true });
    throw e;
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(`dashboard-signin: ${e.message}`);
  process.exit(1);
});
