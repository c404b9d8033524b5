/** Reaching the console QR designer's controls the way a person does: radios by their group's and their own name, sections opened by their summary. */
import type { Page } from 'playwright-core';

/** One choice of a radio group of the designer (a style sample or a colour swatch). */
export const choice = (page: Page, group: string, name: string) =>
  page.getByRole('radiogroup', { name: group, exact: true }).getByRole('radio', { name, exact: true });

/** Opens a folded section of the designer (Style, Colours, Logo, Advanced) unless it is open. */
export async function openSection(page: Page, title: string): Promise<void> {
  const section = page.locator('details.qr-section').filter({ has: page.locator('summary h3', { hasText: title }) });
  if (!(await section.evaluate((d) => (d as HTMLDetailsElement).open))) await section.locator('summary').click();
}

/** The preview's SVG, as drawn. */
export const previewSvg = async (page: Page) =>
  decodeURIComponent((await page.getByTestId('qr-preview').getAttribute('src'))!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));
