/**
 * What a use case asks of QR rendering: render off the event loop, shared fairly between accounts
 * (infra/qr/render-pool.ts renders on worker threads).
 */
import type { ResolvedQrOptions } from './options.js';
import type { QrImage } from './render/index.js';
import type { AutoFixRequest, QrFormat } from './render-task.js';
import type { PrintReport, PrintRequest } from './print/print-report.js';
import type { PdfPrint } from './print/pdf.js';
import type { SheetRequest } from './print/sheets.js';

export interface QrRendererOptions {
  /** Worker threads (QR_RENDER_THREADS). */
  threads: number;
  /** Renders one account may have running at once (QR_RENDER_ACCOUNT_THREADS); at most `threads`. */
  perAccountThreads: number;
  /** Longest a render may take from the call, waiting included (QR_RENDER_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface RenderCall {
  /** The account the render is for: renders are shared fairly between accounts. */
  accountId: string;
  /** Where option errors are reported, e.g. `qr_options` → `qr_options.dotsOptions.color`. */
  pathPrefix?: string;
  /** Renders of the account that may wait at most; past it this one is a 429. Absent: no bound. */
  maxWaiting?: number;
  /** Longest this render may take, waiting included, when it is known to be long (a print sheet); default QR_RENDER_TIMEOUT_MS. */
  timeoutMs?: number;
}

export interface RenderLoad {
  running: number;
  waiting: number;
}

export interface RenderActivity extends RenderLoad {
  /** Renders finished on a thread since the process started, and their thread time. */
  rendered: number;
  renderSeconds: number;
}

export interface QrRenderer {
  render(format: QrFormat, options: ResolvedQrOptions, image: QrImage | null, call: RenderCall): Promise<Buffer>;
  /** A render judged at a print size first, drawn with the smallest change that passes when it does not. */
  renderFixed(
    format: QrFormat,
    options: ResolvedQrOptions,
    image: QrImage | null,
    autoFix: AutoFixRequest | undefined,
    call: RenderCall,
    print?: PdfPrint,
  ): Promise<{ body: Buffer; fixed: string[] }>;
  /** A print sheet (many codes in one PDF), drawn on one thread. */
  sheet(sheet: SheetRequest, call: RenderCall): Promise<Buffer>;
  /** The print report of a design: the scannability gate and its figures. */
  report(options: ResolvedQrOptions, image: QrImage | null, print: PrintRequest, call: RenderCall): Promise<PrintReport>;
  /** An account's renders running and waiting in this process now. */
  load(accountId: string): RenderLoad;
  /** The whole process's: for metrics. */
  activity(): RenderActivity;
  close(): Promise<void>;
}

export const RENDER_BUSY_MESSAGE = 'Too many QR codes of this account are being rendered; retry later';
export const RENDER_TIMEOUT_MESSAGE = 'The QR code could not be rendered in time; retry later';
