/**
 * `npm run bench`: runs every benchmark (or those named: `npm run bench -- api`) and prints
 * their tables. Paste the output into its area page under docs/benchmarks/ (docs/benchmarks.md says
 * which) with the command and the date, newest first, and update that page's "Latest" table.
 */
import { benchAnalytics } from './analytics.js';
import { benchAnalyticsExport } from './analytics-export.js';
import { benchApi } from './api.js';
import { benchBulk } from './bulk.js';
import { benchCafes } from './cafes.js';
import { benchConsoleAnalytics } from './console-analytics.js';
import { benchConsoleAudit } from './console-audit.js';
import { benchConsoleLinks } from './console-links.js';
import { benchConsoleQrPreview } from './console-qr-preview.js';
import { benchConsoleSize } from './console-size.js';
import { benchErrorLists } from './error-lists.js';
import { benchForwardingWarning } from './forwarding-warning.js';
import { benchGeo } from './geo.js';
import { benchImageFairness } from './image-fairness.js';
import { benchJobFairness } from './job-fairness.js';
import { benchLinksList } from './links-list.js';
import { benchLinksListMemory } from './links-list-memory.js';
import { benchMetrics } from './metrics.js';
import { benchPageCosts } from './page-costs.js';
import { benchPages } from './pages.js';
import { benchPagesAudit } from './pages-audit.js';
import { benchPdfPreview } from './pdf-preview.js';
import { benchPrintGate } from './print-gate.js';
import { benchPrintSheets } from './print-sheets.js';
import { benchQr } from './qr.js';
import { benchQrFairness } from './qr-fairness.js';
import { benchQrFrames } from './qr-frames.js';
import { benchQrLogo } from './qr-logo.js';
import { benchQrLogoSvg } from './qr-logo-svg.js';
import { benchRedirect } from './redirect.js';
import { benchScans } from './scans.js';
import { benchScanWorkers } from './scan-workers.js';
import { benchSizing } from './sizing.js';
import { benchStartMemory } from './start-memory.js';
import { benchStorms } from './storms.js';
import { benchTlsAsk } from './tls-ask.js';
import { benchWebhooks } from './webhooks.js';

const BENCHMARKS: Record<string, () => Promise<string>> = {
  analytics: benchAnalytics,
  'analytics-export': benchAnalyticsExport,
  api: benchApi,
  bulk: benchBulk,
  cafes: benchCafes,
  'console-analytics': benchConsoleAnalytics,
  'console-audit': benchConsoleAudit,
  'console-links': benchConsoleLinks,
  'console-qr-preview': benchConsoleQrPreview,
  'console-size': benchConsoleSize,
  'error-lists': benchErrorLists,
  'forwarding-warning': benchForwardingWarning,
  geo: benchGeo,
  'image-fairness': benchImageFairness,
  'job-fairness': benchJobFairness,
  'links-list': benchLinksList,
  'links-list-memory': benchLinksListMemory,
  metrics: benchMetrics,
  'page-costs': benchPageCosts,
  pages: benchPages,
  'pages-audit': benchPagesAudit,
  'pdf-preview': benchPdfPreview,
  'print-gate': benchPrintGate,
  'print-sheets': benchPrintSheets,
  qr: benchQr,
  'qr-fairness': benchQrFairness,
  'qr-frames': benchQrFrames,
  'qr-logo': benchQrLogo,
  'qr-logo-svg': benchQrLogoSvg,
  redirect: benchRedirect,
  scans: benchScans,
  'scan-workers': benchScanWorkers,
  sizing: benchSizing,
  'start-memory': benchStartMemory,
  storms: benchStorms,
  'tls-ask': benchTlsAsk,
  webhooks: benchWebhooks,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
  process.exit(2);
}
process.stdout.write(`qrlinks benchmarks, ${new Date().toISOString()}, node ${process.version}\n\n`);
for (const name of wanted.length ? wanted : Object.keys(BENCHMARKS)) await BENCHMARKS[name]!();
process.exit(0);
