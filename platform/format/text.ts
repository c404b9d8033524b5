/**
 * The first `max` code points of `text`. Every cut of a name to a length goes through here: a cut
 * by UTF-16 units can split a surrogate pair (an emoji, a mathematical letter) and leave a lone
 * half, which shows as `�` and is not valid UTF-8 in a ZIP entry or a file name.
 */
export function firstCodePoints(text: string, max: number): string {
  let end = 0;
  for (let n = 0; n < max && end < text.length; n++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}
