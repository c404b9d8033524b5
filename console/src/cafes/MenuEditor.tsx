/**
 * The cafe's menu: its categories, each with its dishes in menu order. Add a category or a dish,
 * hide or show a dish, delete one after a confirm, and move dishes up or down with buttons (the
 * keyboard's way to reorder; focus stays on the moved dish's button) or by dragging a dish onto
 * another's place, through the reorder endpoint.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { Dialog } from '../screens/Dialog.js';
import { moved, movedTo, newItemForm, orderEntries, priceText, type Category, type Item, type NewItem } from './menu.js';

type Client = ReturnType<typeof signedInClient>;
type Menu = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; categories: Category[]; items: Item[] };

async function loadMenu(client: Client, id: string): Promise<Menu> {
  try {
    const params = { params: { path: { id } } };
    const [categories, items] = await Promise.all([client.GET('/api/v1/cafes/{id}/categories', params), client.GET('/api/v1/cafes/{id}/items', params)]);
    if (!categories.data) return { phase: 'error', message: problemText(categories.response.status, categories.error) };
    if (!items.data) return { phase: 'error', message: problemText(items.response.status, items.error) };
    return { phase: 'ready', categories: categories.data.data, items: items.data.data };
  } catch {
    return { phase: 'error', message: UNREACHABLE };
  }
}

export function MenuEditor({ cafeId }: { cafeId: string }) {
  const client = useMemo(signedInClient, []);
  const [menu, setMenu] = useState<Menu>({ phase: 'loading' });
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  // The dish being dragged (within its category), so a drop knows where it came from.
  const [dragged, setDragged] = useState<{ categoryId: string; index: number } | null>(null);
  const reload = async () => setMenu(await loadMenu(client, cafeId));
  useEffect(() => void reload(), [cafeId]);

  const act = async (send: () => Promise<{ error?: unknown; response: Response }>, done: string) => {
    try {
      const { error, response } = await send();
      setNotice(response.ok ? { ok: true, text: done } : { ok: false, text: problemText(response.status, error) });
    } catch {
      setNotice({ ok: false, text: UNREACHABLE });
    }
    await reload();
  };

  const move = async (category: Item[], index: number, delta: -1 | 1) => {
    const next = moved(category, index, delta);
    if (!next) return;
    const item = category[index]!;
    await act(() => client.PATCH('/api/v1/cafes/{id}/items/reorder', { params: { path: { id: cafeId } }, body: orderEntries(next) }), `${item.name} moved ${delta < 0 ? 'up' : 'down'}.`);
    // Focus follows the dish: its same button in its new place (or the other one at an end).
    const direction = delta < 0 ? 'up' : 'down';
    const button = document.getElementById(`move-${direction}-${item.id}`) as HTMLButtonElement | null;
    (button && !button.disabled ? button : document.getElementById(`move-${delta < 0 ? 'down' : 'up'}-${item.id}`))?.focus();
  };

  const drop = async (category: Item[], to: number) => {
    const from = dragged;
    setDragged(null);
    if (!from || category[0]?.category_id !== from.categoryId) return;
    const next = movedTo(category, from.index, to);
    if (!next) return;
    await act(() => client.PATCH('/api/v1/cafes/{id}/items/reorder', { params: { path: { id: cafeId } }, body: orderEntries(next) }), `${category[from.index]!.name} moved.`);
  };

  if (menu.phase !== 'ready') {
    return menu.phase === 'loading' ? (
      <p class="loading" role="status">
        Loading the menu…
      </p>
    ) : (
      <p class="field-error" role="alert">
        The menu could not be loaded. {menu.message}
      </p>
    );
  }
  return (
    <section class="menu-editor" aria-labelledby="menu-title">
      <h2 id="menu-title">Menu</h2>
      <p role={notice?.ok === false ? 'alert' : 'status'} class={notice?.ok === false ? 'field-error' : undefined}>
        {notice?.text}
      </p>
      {menu.categories.length === 0 && <p class="empty">No categories yet: add one (Coffee, Breakfast…), then its dishes.</p>}
      {menu.categories.map((category) => {
        const dishes = menu.items.filter((i) => i.category_id === category.id);
        return (
          <section key={category.id} class="menu-category" aria-labelledby={`category-${category.id}`}>
            <h3 id={`category-${category.id}`}>{category.name}</h3>
            {dishes.length === 0 ? (
              <p class="empty">No dishes yet.</p>
            ) : (
              <ol class="menu-items" aria-label={`Dishes in ${category.name}`}>
                {dishes.map((item, index) => (
                  <li
                    key={item.id}
                    class={item.visible ? undefined : 'menu-item-hidden'}
                    draggable
                    onDragStart={(e) => {
                      e.dataTransfer?.setData('text/plain', item.id);
                      setDragged({ categoryId: category.id, index });
                    }}
                    onDragOver={(e) => dragged?.categoryId === category.id && e.preventDefault()}
                    onDrop={(e) => {
                      e.preventDefault();
                      void drop(dishes, index);
                    }}
                  >
                    <span class="menu-item-name">{item.name}</span>
                    <span>{priceText(item.price, item.currency)}</span>
                    {!item.visible && <span class="badge">hidden</span>}
                    <span class="menu-item-actions">
                      <button type="button" id={`move-up-${item.id}`} disabled={index === 0} onClick={() => void move(dishes, index, -1)} aria-label={`Move ${item.name} up`}>
                        ↑
                      </button>
                      <button type="button" id={`move-down-${item.id}`} disabled={index === dishes.length - 1} onClick={() => void move(dishes, index, 1)} aria-label={`Move ${item.name} down`}>
                        ↓
                      </button>
                      <button
                        type="button"
                        onClick={() =>
                          void act(
                            () => client.POST(item.visible ? '/api/v1/cafes/{id}/items/{itemId}/hide' : '/api/v1/cafes/{id}/items/{itemId}/show', { params: { path: { id: cafeId, itemId: item.id } } }),
                            `${item.name} is ${item.visible ? 'hidden from' : 'shown on'} the menu page.`,
                          )
                        }
                      >
                        {item.visible ? 'Hide' : 'Show'}
                        <span class="visually-hidden"> {item.name}</span>
                      </button>
                      <button type="button" onClick={() => setDeleting(item)}>
                        Delete<span class="visually-hidden"> {item.name}</span>
                      </button>
                    </span>
                  </li>
                ))}
              </ol>
            )}
            <AddItem client={client} cafeId={cafeId} category={category} onAdded={(name) => (setNotice({ ok: true, text: `${name} added.` }), void reload())} />
          </section>
        );
      })}
      <AddCategory client={client} cafeId={cafeId} onAdded={(name) => (setNotice({ ok: true, text: `${name} added.` }), void reload())} />
      {deleting && (
        <Dialog
          title={`Delete “${deleting.name}”?`}
          submitLabel="Delete dish"
          danger
          onSubmit={() => {
            const item = deleting;
            setDeleting(null);
            void act(() => client.DELETE('/api/v1/cafes/{id}/items/{itemId}', { params: { path: { id: cafeId, itemId: item.id } } }), `${item.name} deleted.`);
          }}
          onCancel={() => setDeleting(null)}
        >
          <p>It leaves the menu page at once, with its image. This cannot be undone.</p>
        </Dialog>
      )}
    </section>
  );
}

function AddCategory({ client, cafeId, onAdded }: { client: Client; cafeId: string; onAdded(name: string): void }) {
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!name.trim()) return setErrors({ 'category.name': 'Give the category a name.' });
    try {
      const { data, error, response } = await client.POST('/api/v1/cafes/{id}/categories', { params: { path: { id: cafeId } }, body: { name: name.trim() } });
      if (!data) {
        const byField = fieldErrorsOf(error);
        return setErrors({ 'category.name': byField.name ?? problemText(response.status, error) });
      }
      setErrors(NO_ERRORS);
      setName('');
      onAdded(data.data.name);
    } catch {
      setErrors({ 'category.name': UNREACHABLE });
    }
  };
  return (
    <form class="add-category" onSubmit={submit} noValidate aria-label="Add a category">
      <Field path="category.name" label="New category" errors={errors}>
        {(input) => <input {...input} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <button type="submit">Add category</button>
    </form>
  );
}

function AddItem({ client, cafeId, category, onAdded }: { client: Client; cafeId: string; category: Category; onAdded(name: string): void }) {
  const [item, setItem] = useState<NewItem>({ name: '', price: '', currency: 'EUR' });
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const prefix = `item-${category.id}`;
  const keyed = (byPath: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(byPath).map(([p, m]) => [`${prefix}.${p}`, m]));
  const submit = async (event: Event) => {
    event.preventDefault();
    const checked = newItemForm(category.id, item);
    if ('errors' in checked) return setErrors(keyed(checked.errors));
    try {
      // The form is sent as FormData; the OpenAPI document gives the multipart body its members as JSON.
      const { data, error, response } = await client.POST('/api/v1/cafes/{id}/items', { params: { path: { id: cafeId } }, body: checked.form as never });
      if (!data) {
        const byField = fieldErrorsOf(error);
        return setErrors(Object.keys(byField).length ? keyed(byField) : { [`${prefix}.name`]: problemText(response.status, error) });
      }
      setErrors(NO_ERRORS);
      setItem({ ...item, name: '', price: '' });
      onAdded(data.data.name);
    } catch {
      setErrors({ [`${prefix}.name`]: UNREACHABLE });
    }
  };
  return (
    <form class="add-item" onSubmit={submit} noValidate aria-label={`Add a dish to ${category.name}`}>
      <Field path={`${prefix}.name`} label="Dish" errors={errors}>
        {(input) => <input {...input} value={item.name} onInput={(e) => setItem({ ...item, name: e.currentTarget.value })} />}
      </Field>
      <Field path={`${prefix}.price`} label="Price" errors={errors}>
        {(input) => <input {...input} inputMode="decimal" value={item.price} onInput={(e) => setItem({ ...item, price: e.currentTarget.value })} />}
      </Field>
      <Field path={`${prefix}.currency`} label="Currency" errors={errors}>
        {(input) => <input {...input} value={item.currency} maxLength={3} onInput={(e) => setItem({ ...item, currency: e.currentTarget.value })} />}
      </Field>
      <button type="submit">Add dish</button>
    </form>
  );
}
