/**
 * Where the signed-in key is kept. By default in sessionStorage: this tab only, forgotten when it
 * closes. "Remember on this device" also writes it to localStorage, where it stays until sign-out.
 */
const KEY_ITEM = 'qrlinks.apiKey';

export interface KeyStores {
  session: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  local: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

export function savedKey(stores: KeyStores): string | null {
  return stores.session.getItem(KEY_ITEM) ?? stores.local.getItem(KEY_ITEM);
}

export function saveKey(stores: KeyStores, key: string, remember: boolean): void {
  stores.session.setItem(KEY_ITEM, key);
  if (remember) stores.local.setItem(KEY_ITEM, key);
  else stores.local.removeItem(KEY_ITEM);
}

export function forgetKey(stores: KeyStores): void {
  stores.session.removeItem(KEY_ITEM);
  stores.local.removeItem(KEY_ITEM);
}
