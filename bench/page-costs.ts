/**
 * What one account's big pages cost everyone else, on real api, worker and redirect processes.
 *
 * Landing pages: the time to answer a scan of a landing link whose HTML is costly to sanitize
 * (512 KB of unclosed `<div>`s; 512 KB of `<div>`s 60 deep; 512 KB of flat `<div>`s), right
 * after the link was written (cold) and again (warm), and whether the api takes the HTML at all.
 *
 * Fairness: another account's website link scanned by two sequential clients (its time to first
 * byte, p50 and p99) while nothing else runs (baseline, same run), then while account A loops
 * "edit its link, scan it" on two clients: on its costliest landing link that the api takes, and
 * on three cafes of 5000 items with long descriptions ("hide an item (or show it again), scan the
 * menu"). Also the redirect process's largest resident memory during each loop.
 */
import { getUntil, median, peakRssWhile, percentile, printTable, startBenchStack, timedGet } from './support.js';

const ATTACK_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ITEMS = 5000;
const CAFES = 3;
const LANDING_BYTES = 500 * 1024;

const HOSTILE_LANDINGS: Record<string, string> = {
  'unclosed <div> × 100,000': `${'<div>'.repeat(100_000)}x`,
  '<div> 60 deep, repeated': `${'<div>'.repeat(60)}x${'</div>'.repeat(60)}`.repeat(Math.floor(LANDING_BYTES / 662)),
  'flat <div>x</div>': '<div>x</div>'.repeat(Math.floor(LANDING_BYTES / 12)),
};

const DESCRIPTION = 'Slow-cooked with seasonal vegetables from the market, finished with herbs and a little lemon. '.repeat(15);

/** Two sequential clients scanning `url` until `until()` says stop: every answer's time to first byte. */
async function scanTimes(url: string, until: () => boolean): Promise<number[]> {
  const { times, statuses } = await getUntil(url, until);
  const other = Object.keys(statuses).find((status) => status !== '302');
  if (other) throw new Error(`${url} answered ${other}`);
  return times;
}

export async function benchPageCosts(): Promise<string> {
  const { api, redirect, redirectPid, accountWithKey, stop } = await startBenchStack('page_costs');
  try {
    const attacker = await accountWithKey('bench-pages-a');
    const other = await accountWithKey('bench-pages-b');
    const json = (auth: Record<string, string>) => ({ ...auth, 'content-type': 'application/json' });
    const send = async (method: string, path: string, auth: Record<string, string>, body?: unknown) => {
      const res = await fetch(`${api}/api/v1${path}`, {
        method,
        headers: json(auth),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any answer's fields, read loosely as a bench reads them
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };

    const website = await send('POST', '/links', other.auth, { name: 'website', type: 'website', data: { url: 'https://example.com/' } });
    const websiteUrl = `${redirect}/${website.body.id}`;
    await timedGet(websiteUrl);
    const quietEnd = Date.now() + ATTACK_SECONDS * 1000;
    const quiet = await scanTimes(websiteUrl, () => Date.now() > quietEnd);
    const quietRss = await peakRssWhile(redirectPid, Promise.resolve(), 50);
    const fairness: Array<Array<string | number>> = [
      [
        'nothing else (baseline)',
        quiet.length,
        percentile(quiet, 0.5).toFixed(2),
        percentile(quiet, 0.99).toFixed(2),
        Math.max(...quiet).toFixed(0),
        '—',
        quietRss.peakMb.toFixed(0),
      ],
    ];

    /** Account A's loops ("edit, scan") on two clients beside account B's website scans. */
    async function underAttack(what: string, loop: (client: number, stopped: () => boolean) => Promise<number[]>) {
      const end = Date.now() + ATTACK_SECONDS * 1000;
      const stopped = () => Date.now() > end;
      const { result, peakMb } = await peakRssWhile(
        redirectPid,
        Promise.all([scanTimes(websiteUrl, stopped), loop(0, stopped), loop(1, stopped)]),
        50,
      );
      const [times, ...attacks] = result;
      const attackTimes = attacks.flat();
      fairness.push([
        what,
        times.length,
        percentile(times, 0.5).toFixed(2),
        percentile(times, 0.99).toFixed(2),
        Math.max(...times).toFixed(0),
        `${attackTimes.length} scans, median ${median(attackTimes).toFixed(0)} ms`,
        peakMb.toFixed(0),
      ]);
    }

    // Landing pages.
    const landing: Array<Array<string | number>> = [];
    let costliest: { slug: string; html: string } | null = null;
    for (const [name, html] of Object.entries(HOSTILE_LANDINGS)) {
      const made = await send('POST', '/links', attacker.auth, { name, type: 'landing', data: { landingHTML: html } });
      if (made.status !== 200) {
        landing.push([
          name,
          (Buffer.byteLength(html) / 1024).toFixed(0),
          `${made.status} ${JSON.stringify(made.body.errors?.[0] ?? made.body.message ?? made.body).slice(0, 90)}`,
          '—',
          '—',
        ]);
        continue;
      }
      const url = `${redirect}/${made.body.id}`;
      const cold = await timedGet(url);
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) warm.push((await timedGet(url)).ms);
      landing.push([name, (Buffer.byteLength(html) / 1024).toFixed(0), made.status, cold.ms.toFixed(1), median(warm).toFixed(1)]);
      costliest ??= { slug: made.body.id, html };
    }
    const landingTable = printTable(
      'landing pages: a scan of a landing link with costly HTML, right after the link was written (cold) and again (warm, median of 5)',
      ['landing HTML', 'KiB', 'POST /links', 'cold scan ms', 'warm scan ms'],
      landing,
    );

    if (costliest) {
      const { slug, html } = costliest;
      let edits = 0;
      await underAttack(
        `A: 2 clients loop "PUT its landing link (${Object.keys(HOSTILE_LANDINGS).find((k) => HOSTILE_LANDINGS[k] === html)}), scan it"`,
        async (_client, stopped) => {
          const times: number[] = [];
          while (!stopped()) {
            const put = await send('PUT', `/links/${slug}`, attacker.auth, {
              name: `edit ${edits++}`,
              type: 'landing',
              data: { landingHTML: html },
            });
            if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
            times.push((await timedGet(`${redirect}/${slug}`)).ms);
          }
          return times;
        },
      );
    }

    // Three cafes of 5000 items with long descriptions.
    const cafes: Array<{ id: string; slug: string; itemIds: string[] }> = [];
    let menuBytes = 0;
    for (let c = 0; c < CAFES; c++) {
      const made = await send('POST', '/cafes', attacker.auth, { name: `Cafe ${c}` });
      const cafe = made.body.data as { id: string; link: { dynamic_link_id: string } };
      const items = Array.from({ length: ITEMS }, (_, i) => ({
        name: `Dish ${i}`,
        price: 9.5,
        currency: 'EUR',
        category: `Category ${i % 50}`,
        description: `${i} ${DESCRIPTION}`,
      }));
      const inserted = await send('POST', `/cafes/${cafe.id}/items/bulk-insert`, attacker.auth, { items });
      if (inserted.status !== 200) throw new Error(`bulk insert answered ${inserted.status}`);
      const listed = await send('GET', `/cafes/${cafe.id}/items`, attacker.auth);
      cafes.push({
        id: cafe.id,
        slug: cafe.link.dynamic_link_id,
        itemIds: (listed.body.data as Array<{ id: string }>).slice(0, 2).map((i) => i.id),
      });
      menuBytes = (await timedGet(`${redirect}/${cafe.link.dynamic_link_id}`, { 'accept-encoding': 'identity' })).bytes;
    }
    let turn = 0;
    await underAttack(
      `A: 2 clients loop "hide (or show) an item of one of ${CAFES} cafes of ${ITEMS} items, scan its menu" (${(menuBytes / 1024 / 1024).toFixed(1)} MB page)`,
      async (client, stopped) => {
        const times: number[] = [];
        let hidden = false;
        while (!stopped()) {
          const cafe = cafes[turn++ % CAFES]!;
          const edit = await send('POST', `/cafes/${cafe.id}/items/${cafe.itemIds[client]}/${hidden ? 'show' : 'hide'}`, attacker.auth);
          if (edit.status !== 200) throw new Error(`hide answered ${edit.status}`);
          hidden = !hidden;
          const scan = await timedGet(`${redirect}/${cafe.slug}`);
          if (scan.status !== 200) throw new Error(`menu scan answered ${scan.status}`);
          times.push(scan.ms);
        }
        return times;
      },
    );

    const fairnessTable = printTable(
      `fairness: account B's website link scanned by 2 sequential clients for ${ATTACK_SECONDS} s (time to first byte) while account A's loops run; the redirect's largest resident memory meanwhile`,
      ['while', 'B scans', 'B p50 ms', 'B p99 ms', 'B max ms', "A's scans", 'redirect RSS MB'],
      fairness,
    );
    return `${landingTable}\n${fairnessTable}`;
  } finally {
    await stop();
  }
}
