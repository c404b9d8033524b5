/**
 * The menu page's script, run in the guest's browser (compiled by script.ts, inlined in the page
 * and allowed by its hash). It hides what does not match the search and the filters, keeps them
 * in the URL's query, counts the filters on in the Filters control, and closes a photo sheet on
 * Escape. Every rule it applies is in the page: an item's searchable words are its name,
 * description and ingredients (.s), its allergen and dietary keys are in data-a and data-d
 * (separated by "|"), and the texts it writes are the form's data attributes in the page's
 * language. The page is complete without it: the form stays hidden.
 */
export {};

const form = document.getElementById('mf');
if (form instanceof HTMLFormElement) enhance(form);

function enhance(f: HTMLFormElement): void {
  f.hidden = false;
  const all = <E extends Element>(selector: string) => [...document.querySelectorAll<E>(selector)];
  const items = all<HTMLElement>('.item');
  const cats = all<HTMLElement>('.cat');
  const grps = all<HTMLElement>('.grp');
  const tabs = all<HTMLAnchorElement>('.tabs a');
  const found = document.getElementById('mf-found')!;
  const none = document.getElementById('mf-none')!;
  const sum = f.querySelector('summary');
  const text = f.dataset as { on: string; off: string; one: string; other: string };
  const search = f.elements.namedItem('q') as HTMLInputElement;

  // Accents and case do not count: "cafe" finds "Café".
  const key = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
  const words = new Map(items.map((el) => [el, key([...el.querySelectorAll('.s')].map((s) => s.textContent).join(' '))]));
  const checked = (name: string) => [...f.querySelectorAll<HTMLInputElement>(`input[name=${name}]:checked`)].map((c) => c.value);
  const say = (n: number, one: string, other: string) => (n === 1 ? one : other).replace('{count}', String(n));

  function read(): void {
    const p = new URLSearchParams(location.search);
    search.value = p.get('q') || '';
    for (const c of f.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) c.checked = p.getAll(c.name).includes(c.value);
  }

  function apply(write: boolean): void {
    const q = key(search.value);
    const avoid = checked('avoid');
    const diet = checked('diet');
    let shown = 0;
    for (const el of items) {
      const allergens = el.dataset.a ? el.dataset.a.split('|') : [];
      const diets = el.dataset.d ? el.dataset.d.split('|') : [];
      const ok = (!q || words.get(el)!.includes(q)) && !avoid.some((x) => allergens.includes(x)) && diet.every((x) => diets.includes(x));
      el.hidden = !ok;
      if (ok) shown++;
    }
    for (const c of cats) c.hidden = !c.querySelector('.item:not([hidden])');
    for (const g of grps) g.hidden = !g.querySelector('.cat:not([hidden])');
    for (const t of tabs) {
      const g = document.getElementById(t.hash.slice(1));
      t.hidden = !!g && g.hidden;
    }
    const on = avoid.length + diet.length;
    if (sum) {
      sum.textContent = on ? text.on.replace('{count}', String(on)) : text.off;
      sum.classList.toggle('on', on > 0);
    }
    found.hidden = !(q || on);
    found.textContent = say(shown, text.one, text.other);
    none.hidden = shown > 0;
    if (write) {
      const p = new URLSearchParams();
      if (search.value.trim()) p.set('q', search.value.trim());
      for (const v of diet) p.append('diet', v);
      for (const v of avoid) p.append('avoid', v);
      const s = p.toString();
      history.replaceState(null, '', (s ? '?' + s : location.pathname) + location.hash);
    }
  }

  f.addEventListener('input', () => apply(true));
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    apply(true);
  });
  // The reset event comes before the form's controls are cleared.
  f.addEventListener('reset', () => setTimeout(() => apply(true)));
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && /^#d\d+$/.test(location.hash)) {
      const close = document.querySelector<HTMLAnchorElement>(location.hash + ' .close');
      if (close) location.replace(close.href);
    }
  });
  read();
  apply(false);
}
