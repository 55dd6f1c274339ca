'use strict';
// Opens the dashboard in Chromium, keeps the test's application, and checks the triggers panel: a consumer waiting
// for a bucket shows it with how many inputs arrived of those expected and which producer's keys are missing; a
// paused consumer shows as paused, with its latest trigger run and the batch that run consumed. Prints one JSON line;
// exits 1 on the first check that fails.
//
// Environment: DASHBOARD_URL, TOKEN (bearer, viewer or above), CHROMIUM (executable), SCREENSHOTS (folder),
// APPLICATION (id of the test's application), WAITING (a consumer's parent id), BUCKET (the bucket it waits for),
// ARRIVED and EXPECTED (its inputs), PRODUCER (the producer it waits for), MISSING (one of the keys missing),
// PAUSED (a paused consumer's parent id), TRIGGER_RUN (its trigger run's id), BATCH (the batch that run consumed).
const { env, checkPanel } = require('./chromium');

const WAIT = 30000; // the panel asks every 5 s, once the page has the queues of the application

checkPanel('triggers', async (page) => {
  const waitingRow = `#triggers div[data-trigger="${env('WAITING')}"] tr[data-bucket="${env('BUCKET')}"]`;
  await page.waitForFunction(([sel, arrived, producer, missing]) => {
    const row = document.querySelector(sel);
    return row && row.textContent.includes(arrived) && row.textContent.includes(`${producer}: `)
      && row.textContent.includes(missing);
  }, [waitingRow, `${env('ARRIVED')} / ${env('EXPECTED')}`, env('PRODUCER'), env('MISSING')], { timeout: WAIT });
  const runRow = `#triggers div[data-trigger="${env('PAUSED')}"][data-paused="true"] tr[data-trigger-run="${env('TRIGGER_RUN')}"]`;
  await page.waitForFunction(([sel, batch]) => {
    const row = document.querySelector(sel);
    return row && row.textContent.includes(batch);
  }, [runRow, env('BATCH')], { timeout: WAIT });
}, async (page) => {
  await page.waitForSelector('#status[data-version]', { timeout: WAIT });
  await page.waitForSelector(`#app option[value="${env('APPLICATION')}"]`, { state: 'attached', timeout: WAIT });
  await page.selectOption('#app', env('APPLICATION'));
});
