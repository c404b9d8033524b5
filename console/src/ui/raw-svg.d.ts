/** Vite's `?raw` import: the file's text, bundled as a string (console/src/ui/icons.ts). */
declare module '*.svg?raw' {
  const text: string;
  export default text;
}
