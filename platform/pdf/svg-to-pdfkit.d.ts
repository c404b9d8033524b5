/**
 * svg-to-pdfkit 0.1.x ships no type declarations; this declares the part we call.
 */
declare module 'svg-to-pdfkit' {
  type SvgColor = [number[], number];
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    preserveAspectRatio?: string;
    assumePt?: boolean;
    precision?: number;
    warningCallback?: (message: string) => void;
    imageCallback?: (link: string) => string | Buffer;
    colorCallback?: (color: SvgColor | undefined, raw: string) => SvgColor | undefined;
  }
  function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x?: number, y?: number, options?: SvgToPdfOptions): void;
  export default SVGtoPDF;
}
