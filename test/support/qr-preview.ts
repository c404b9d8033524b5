/** Timing the console QR designer's live preview in a real page (the browser test and bench/console-qr-preview.ts). */
import type { Page } from 'playwright-core';

/**
 * Sets a control the way a person's input arrives (one input or change event; a radio is checked)
 * and measures, in the page, the milliseconds until the preview shows a different picture,
 * decoded and ready to paint.
 */
export function timedPreviewChange(page: Page, selector: string, value: string): Promise<number> {
  return page.evaluate(
    ({ selector, value }) =>
      new Promise<number>((resolve, reject) => {
        // No named helper functions in here: tsx (the bench's loader) would wrap them in a `__name` call the page lacks.
        const before = document.querySelector<HTMLImageElement>('[data-testid="qr-preview"]')?.src;
        const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(selector);
        if (!control) return reject(new Error(`no ${selector}`));
        const observer = new MutationObserver(() => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="qr-preview"]');
          if (!img || img.src === before) return;
          observer.disconnect();
          img.decode().then(() => resolve(performance.now() - start), reject);
        });
        observer.observe(document.querySelector('.qr-preview')!, { attributes: true, subtree: true, childList: true });
        setTimeout(() => reject(new Error('the preview did not change within 5 s')), 5000);
        const start = performance.now();
        const radio = control instanceof HTMLInputElement && control.type === 'radio';
        if (radio) control.checked = true;
        else control.value = value;
        control.dispatchEvent(new Event(radio || control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
      }),
    { selector, value },
  );
}

/** Alternating changes of dot style (its radios) and dot colour, each to a value other than the current one, each timed; `rounds` of each. */
export async function previewTimes(page: Page, rounds: number): Promise<number[]> {
  const times: number[] = [];
  const color = '#field-dotsOptions-color';
  for (let i = 0; i < rounds; i++) {
    const style = (await page.isChecked('#field-dotsOptions-type-dots'))
      ? '#field-dotsOptions-type-rounded'
      : '#field-dotsOptions-type-dots';
    times.push(await timedPreviewChange(page, style, ''));
    times.push(await timedPreviewChange(page, color, (await page.inputValue(color)) === '#1d4ed8' ? '#0b3d2e' : '#1d4ed8'));
  }
  return times;
}
