'use strict';
// Opens the dashboard in Chromium and checks the backfills panel: an ended backfill shows one row per level, each with
// a bar whose segments carry that level's counts at widths in proportion to them, and the counts in words; a paused
// backfill shows among the live ones, before the ended. Prints one JSON line; exits 1 on the first check that fails.
//
// Environment: DASHBOARD_URL, TOKEN (bearer, viewer or above), CHROMIUM (executable), SCREENSHOTS (folder), ENDED (an
// ended backfill's id), ENDED_LEVELS (JSON: [{level, text, counts: {entries, succeeded, failed, skipped, running,
// pending}}], from GET /backfills/{id}'s progress), PAUSED (a paused backfill's id).
const { env, checkPanel } = require('./chromium');

const WAIT = 30000; // the panel asks every 5 s

checkPanel('backfills', async (page) => {
  await page.waitForFunction(([id, levels]) => {
    const div = document.querySelector(`#backfills div[data-backfill="${id}"]`);
    if (!div) return false;
    const rows = [...div.querySelectorAll('div.level')];
    if (rows.length !== levels.length) return false;
    return levels.every((l, i) => {
      const row = rows[i];
      if (row.dataset.level !== String(l.level) || row.querySelector('.level-text').textContent !== l.text) return false;
      const bar = row.querySelector('.bar');
      const width = bar.getBoundingClientRect().width;
      return ['succeeded', 'failed', 'skipped', 'running', 'pending'].every((k) => {
        const seg = bar.querySelector(`[data-segment="${k}"]`);
        const n = l.counts[k];
        if (!n) return !seg;
        return seg && seg.dataset.count === String(n)
          && Math.abs(seg.getBoundingClientRect().width / width - n / l.counts.entries) < 0.02;
      });
    });
  }, [env('ENDED'), JSON.parse(env('ENDED_LEVELS'))], { timeout: WAIT });
  const order = await page.evaluate(([paused, ended]) => {
    const p = document.querySelector(`#backfills div[data-backfill="${paused}"][data-state="PAUSED"]`);
    const e = document.querySelector(`#backfills div[data-backfill="${ended}"][data-state="SUCCEEDED"]`);
    if (!p || !e) return `paused shown: ${!!p}, ended shown as succeeded: ${!!e}`;
    if (!p.querySelector('div.level .bar')) return 'the paused backfill has no level bar';
    return p.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING ? 'ok' : 'the ended backfill comes first';
  }, [env('PAUSED'), env('ENDED')]);
  if (order !== 'ok') throw new Error(order);
});
