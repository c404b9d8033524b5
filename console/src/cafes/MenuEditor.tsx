/**
 * The cafe's menu as the tree the guest page shows: groups → categories → dishes, each in menu
 * order. Each level can be added, edited (a dialog, MenuForms.tsx), hidden or shown, deleted after
 * a confirm that says what goes with it, and reordered among its siblings: by buttons (the
 * keyboard's way; focus stays on the moved entry's button) or by dragging a row onto another's
 * place, through the level's reorder endpoint. A category moves to another group in its dialog.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Dialog } from '../screens/Dialog.js';
import {
  deleteConsequence,
  menuTree,
  moved,
  movedTo,
  orderEntries,
  priceText,
  type Category,
  type Group,
  type Item,
  type TreeGroup,
} from './menu.js';
import { CategoryDialog, GroupDialog, ItemDialog } from './MenuForms.js';

type Client = ReturnType<typeof signedInClient>;
type Menu =
  { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; groups: Group[]; categories: Category[]; items: Item[] };
type Kind = 'group' | 'category' | 'item';
type Entry = { id: string; name: string; visible: boolean };
/** The open add or edit dialog. */
type Editing =
  | { kind: 'group'; group: Group | null }
  | { kind: 'category'; category: Category | null; groupId: string | null }
  | { kind: 'item'; item: Item | null; categoryId: string };
type Deleting = { kind: Kind; entry: Entry; consequence: string };

/** How an entry is named in its buttons: a dish by its name alone, the levels above by theirs. */
const called = (kind: Kind, name: string) => (kind === 'item' ? name : `${kind} ${name}`);

async function loadMenu(client: Client, id: string): Promise<Menu> {
  try {
    const params = { params: { path: { id } } };
    const [groups, categories, items] = await Promise.all([
      client.GET('/api/v1/cafes/{id}/groups', params),
      client.GET('/api/v1/cafes/{id}/categories', params),
      client.GET('/api/v1/cafes/{id}/items', params),
    ]);
    for (const answer of [groups, categories, items])
      if (!answer.data) return { phase: 'error', message: problemText(answer.response.status, answer.error) };
    return { phase: 'ready', groups: groups.data!.data, categories: categories.data!.data, items: items.data!.data };
  } catch {
    return { phase: 'error', message: UNREACHABLE };
  }
}

export function MenuEditor({ cafeId }: { cafeId: string }) {
  const client = useMemo(signedInClient, []);
  const [menu, setMenu] = useState<Menu>({ phase: 'loading' });
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [deletes, setDeletes] = useState(0);
  // The row being dragged (its level and parent), so a drop knows where it came from.
  const [dragged, setDragged] = useState<{ kind: Kind; parent: string; index: number } | null>(null);
  const reload = async () => setMenu(await loadMenu(client, cafeId));
  useEffect(() => void reload(), [cafeId]);
  const tree = useMemo(() => (menu.phase === 'ready' ? menuTree(menu.groups, menu.categories, menu.items) : []), [menu]);

  const act = async (send: () => Promise<{ error?: unknown; response: Response }>, done: string) => {
    try {
      const { error, response } = await send();
      setNotice(response.ok ? { ok: true, text: done } : { ok: false, text: problemText(response.status, error) });
    } catch {
      setNotice({ ok: false, text: UNREACHABLE });
    }
    await reload();
  };
  const path = { params: { path: { id: cafeId } } };

  const reorder = (kind: Kind, next: Entry[], done: string) =>
    act(
      () =>
        kind === 'group'
          ? client.PATCH('/api/v1/cafes/{id}/groups/reorder', { ...path, body: { orders: orderEntries(next) } })
          : kind === 'category'
            ? client.PATCH('/api/v1/cafes/{id}/categories/reorder', { ...path, body: { orders: orderEntries(next) } })
            : client.PATCH('/api/v1/cafes/{id}/items/reorder', { ...path, body: orderEntries(next) }),
      done,
    );

  const move = async (kind: Kind, list: Entry[], index: number, delta: -1 | 1) => {
    const next = moved(list, index, delta);
    if (!next) return;
    const entry = list[index]!;
    const direction = delta < 0 ? 'up' : 'down';
    await reorder(kind, next, `${entry.name} moved ${direction}.`);
    // Focus follows the entry: its same button in its new place (or the other one at an end).
    const button = document.getElementById(`move-${direction}-${entry.id}`) as HTMLButtonElement | null;
    (button && !button.disabled ? button : document.getElementById(`move-${delta < 0 ? 'down' : 'up'}-${entry.id}`))?.focus();
  };

  const setVisible = (kind: Kind, entry: Entry) => {
    const visible = !entry.visible;
    const done = `${entry.name} is ${visible ? 'shown on' : 'hidden from'} the menu page.`;
    if (kind === 'item')
      return act(
        () =>
          client.POST(visible ? '/api/v1/cafes/{id}/items/{itemId}/show' : '/api/v1/cafes/{id}/items/{itemId}/hide', {
            params: { path: { id: cafeId, itemId: entry.id } },
          }),
        done,
      );
    if (kind === 'category')
      return act(
        () =>
          client.PUT('/api/v1/cafes/{id}/categories/{categoryId}', {
            params: { path: { id: cafeId, categoryId: entry.id } },
            body: { visible },
          }),
        done,
      );
    const form = new FormData();
    form.append('visible', String(visible));
    return act(
      () => client.PUT('/api/v1/cafes/{id}/groups/{groupId}', { params: { path: { id: cafeId, groupId: entry.id } }, body: form as never }),
      done,
    );
  };

  const remove = async ({ kind, entry }: Deleting) => {
    setDeleting(null);
    const done = `${entry.name} deleted.`;
    if (kind === 'item')
      await act(() => client.DELETE('/api/v1/cafes/{id}/items/{itemId}', { params: { path: { id: cafeId, itemId: entry.id } } }), done);
    else if (kind === 'category')
      await act(
        () => client.DELETE('/api/v1/cafes/{id}/categories/{categoryId}', { params: { path: { id: cafeId, categoryId: entry.id } } }),
        done,
      );
    else
      await act(() => client.DELETE('/api/v1/cafes/{id}/groups/{groupId}', { params: { path: { id: cafeId, groupId: entry.id } } }), done);
    setDeletes((n) => n + 1);
  };
  // The deleted row's button had the focus: once the row is gone, it goes to the menu's heading rather than the page's start.
  useEffect(() => {
    if (deletes > 0 && (!document.activeElement || document.activeElement === document.body))
      document.getElementById('menu-title')?.focus();
  }, [deletes]);

  /** A row's drag and drop among its siblings (the same level under the same parent). */
  const dragProps = (kind: Kind, parent: string, list: Entry[], index: number) => ({
    draggable: true,
    onDragStart: (e: DragEvent) => {
      e.stopPropagation();
      e.dataTransfer?.setData('text/plain', list[index]!.id);
      setDragged({ kind, parent, index });
    },
    onDragOver: (e: DragEvent) => dragged?.kind === kind && dragged.parent === parent && e.preventDefault(),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      e.stopPropagation();
      const from = dragged;
      setDragged(null);
      if (from?.kind !== kind || from.parent !== parent) return;
      const next = movedTo(list, from.index, index);
      if (next) void reorder(kind, next, `${list[from.index]!.name} moved.`);
    },
  });

  const actions = (kind: Kind, list: Entry[], index: number, onEdit: () => void, consequence: () => string) => {
    const entry = list[index]!;
    const name = called(kind, entry.name);
    return (
      <span class="menu-actions">
        <button
          type="button"
          id={`move-up-${entry.id}`}
          disabled={index === 0}
          onClick={() => void move(kind, list, index, -1)}
          aria-label={`Move ${name} up`}
        >
          ↑
        </button>
        <button
          type="button"
          id={`move-down-${entry.id}`}
          disabled={index === list.length - 1}
          onClick={() => void move(kind, list, index, 1)}
          aria-label={`Move ${name} down`}
        >
          ↓
        </button>
        <button type="button" onClick={onEdit}>
          Edit<span class="visually-hidden"> {name}</span>
        </button>
        <button type="button" onClick={() => void setVisible(kind, entry)}>
          {entry.visible ? 'Hide' : 'Show'}
          <span class="visually-hidden"> {name}</span>
        </button>
        <button type="button" onClick={() => setDeleting({ kind, entry, consequence: consequence() })}>
          Delete<span class="visually-hidden"> {name}</span>
        </button>
      </span>
    );
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
  const saved = (verb: string) => (name: string) => {
    setEditing(null);
    setNotice({ ok: true, text: `${name} ${verb}.` });
    void reload();
  };
  // A dialog may have saved part of its work before it was cancelled (a category whose image was refused).
  const cancelled = () => {
    setEditing(null);
    void reload();
  };
  const groups = tree.flatMap((t) => (t.group ? [t.group] : []));
  const allCategories = tree.flatMap((t) => t.categories.map((c) => c.category));
  const hidden = <span class="badge">hidden</span>;

  const categoryNode = (branch: TreeGroup, index: number) => {
    const { category, items } = branch.categories[index]!;
    const siblings = branch.categories.map((c) => c.category);
    return (
      <li key={category.id} class={category.visible ? 'menu-category' : 'menu-category menu-hidden'}>
        <div class="menu-row" {...dragProps('category', branch.group?.id ?? '', siblings, index)}>
          <h4 id={`category-${category.id}`} class="menu-name">
            {category.name}
          </h4>
          {!category.visible && hidden}
          {actions(
            'category',
            siblings,
            index,
            () => setEditing({ kind: 'category', category, groupId: category.group_id }),
            () => deleteConsequence({ kind: 'category', items: items.length }),
          )}
        </div>
        {category.description && <p class="menu-description">{category.description}</p>}
        {items.length === 0 ? (
          <p class="empty">No dishes yet.</p>
        ) : (
          <ol class="menu-items" aria-label={`Dishes in ${category.name}`}>
            {items.map((item, i) => (
              <li key={item.id} class={item.visible ? 'menu-row' : 'menu-row menu-hidden'} {...dragProps('item', category.id, items, i)}>
                <span class="menu-item-name menu-name">{item.name}</span>
                <span>{priceText(item.price, item.currency)}</span>
                {item.image && <span class="badge">photo</span>}
                {!item.visible && hidden}
                {actions(
                  'item',
                  items,
                  i,
                  () => setEditing({ kind: 'item', item, categoryId: item.category_id }),
                  () => deleteConsequence({ kind: 'item' }),
                )}
              </li>
            ))}
          </ol>
        )}
        <button type="button" class="menu-add" onClick={() => setEditing({ kind: 'item', item: null, categoryId: category.id })}>
          Add a dish<span class="visually-hidden"> to {category.name}</span>
        </button>
      </li>
    );
  };

  return (
    <section class="menu-editor" aria-labelledby="menu-title">
      <h2 id="menu-title" tabIndex={-1}>
        Menu
      </h2>
      <p role={notice?.ok === false ? 'alert' : 'status'} class={notice?.ok === false ? 'field-error' : undefined}>
        {notice?.text}
      </p>
      {tree.length === 0 && <p class="empty">No groups yet: add one (Drinks, Food…), then its categories and their dishes.</p>}
      <ol class="menu-tree" aria-label="Menu groups">
        {tree.map((branch) => {
          const { group } = branch;
          const index = group ? groups.indexOf(group) : -1;
          const items = branch.categories.reduce((n, c) => n + c.items.length, 0);
          return (
            <li key={group?.id ?? 'ungrouped'} class={group && !group.visible ? 'menu-group menu-hidden' : 'menu-group'}>
              <div class="menu-row" {...(group ? dragProps('group', '', groups, index) : {})}>
                <h3 class="menu-name">{group ? group.name : 'Not in a group'}</h3>
                {group && !group.visible && hidden}
                {group &&
                  actions(
                    'group',
                    groups,
                    index,
                    () => setEditing({ kind: 'group', group }),
                    () => deleteConsequence({ kind: 'group', categories: branch.categories.length, items }),
                  )}
              </div>
              {!group && (
                <p class="hint">
                  Categories whose group was deleted; the menu page shows them after the groups. Edit one to put it in a group.
                </p>
              )}
              {branch.categories.length === 0 ? (
                <p class="empty">No categories yet.</p>
              ) : (
                <ol class="menu-categories" aria-label={`Categories in ${group ? group.name : 'no group'}`}>
                  {branch.categories.map((_, i) => categoryNode(branch, i))}
                </ol>
              )}
              {group && (
                <button type="button" class="menu-add" onClick={() => setEditing({ kind: 'category', category: null, groupId: group.id })}>
                  Add a category<span class="visually-hidden"> to {group.name}</span>
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => setEditing({ kind: 'group', group: null })}>
        Add a group
      </button>
      {editing?.kind === 'group' && (
        <GroupDialog
          client={client}
          cafeId={cafeId}
          group={editing.group}
          onSaved={saved(editing.group ? 'saved' : 'added')}
          onCancel={cancelled}
        />
      )}
      {editing?.kind === 'category' && (
        <CategoryDialog
          client={client}
          cafeId={cafeId}
          category={editing.category}
          groupId={editing.groupId}
          groups={groups}
          onSaved={saved(editing.category ? 'saved' : 'added')}
          onCancel={cancelled}
        />
      )}
      {editing?.kind === 'item' && (
        <ItemDialog
          client={client}
          cafeId={cafeId}
          item={editing.item}
          start={{ categoryId: editing.categoryId, currency: menu.items.at(-1)?.currency ?? 'EUR' }}
          categories={allCategories}
          onSaved={saved(editing.item ? 'saved' : 'added')}
          onCancel={cancelled}
        />
      )}
      {deleting && (
        <Dialog
          title={`Delete “${deleting.entry.name}”?`}
          submitLabel={`Delete ${deleting.kind === 'item' ? 'dish' : deleting.kind}`}
          danger
          onSubmit={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>{deleting.consequence}</p>
        </Dialog>
      )}
    </section>
  );
}
