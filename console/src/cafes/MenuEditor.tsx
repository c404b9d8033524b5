/**
 * The cafe's menu as the tree the guest page shows: groups → categories → dishes, each in menu
 * order, made to stay usable on a phone with hundreds of dishes. Groups and categories fold
 * (categories start closed on a big menu; what the owner opens or closes is kept for the tab's
 * session), a search finds dishes by name or description and opens the categories holding them,
 * and each row has one "⋯" menu: edit (a dialog, MenuForms.tsx), hide or show, move up or down,
 * delete with an Undo (the API's delete is final, so it is sent once the Undo has passed). A row
 * is also moved by dragging its grip (mouse or finger) or by Alt+↑/↓, through the level's reorder
 * endpoint, shown at once. A category moves to another group in its dialog.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { DragHandle } from '../ui/DragHandle.js';
import { Icon } from '../ui/Icon.js';
import { typingIn } from '../ui/keys.js';
import { RowMenu, type MenuAction } from '../ui/RowMenu.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { deferWithUndo, showToast } from '../ui/toasts.js';
import {
  deletedText,
  isOpen,
  menuTree,
  moved,
  movedTo,
  orderEntries,
  priceText,
  reordered,
  searchTree,
  type Category,
  type Group,
  type Item,
  type TreeCategory,
  type TreeGroup,
} from './menu.js';
import { cafeTabHref } from './cafe-list.js';
import { CategoryDialog, GroupDialog, ItemDialog } from './MenuForms.js';

type Client = ReturnType<typeof signedInClient>;
type Loaded = { groups: Group[]; categories: Category[]; items: Item[] };
type Menu = { phase: 'loading' } | { phase: 'error'; message: string } | ({ phase: 'ready' } & Loaded);
type Kind = 'group' | 'category' | 'item';
type Entry = { id: string; name: string; visible: boolean };
/** The open add or edit dialog. */
type Editing =
  | { kind: 'group'; group: Group | null }
  | { kind: 'category'; category: Category | null; groupId: string | null }
  | { kind: 'item'; item: Item | null; categoryId: string };

const LIST_OF: Record<Kind, keyof Loaded> = { group: 'groups', category: 'categories', item: 'items' };
/** How an entry is named in its menu's label: a dish by its name alone, the levels above by theirs. */
const called = (kind: Kind, name: string) => (kind === 'item' ? name : `${kind} ${name}`);
const menuButtonId = (id: string) => `row-menu-${id}`;
const UNGROUPED = 'ungrouped';

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

/** Which groups and categories the owner opened or closed, kept per cafe for the tab's session. */
function useOpened(cafeId: string) {
  const key = `qrlinks.cafe-menu-open.${cafeId}`;
  const [opened, setOpened] = useState<Record<string, boolean>>(() => {
    try {
      return JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, boolean>;
    } catch {
      return {};
    }
  });
  const set = (change: Record<string, boolean>) =>
    setOpened((now) => {
      const next = { ...now, ...change };
      try {
        sessionStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or refused: the choice holds until the page is left.
      }
      return next;
    });
  return [opened, set] as const;
}

/** Gives the focus to a row's "⋯" button once the row is drawn in its new place. */
const refocus = (id: string) => requestAnimationFrame(() => document.getElementById(menuButtonId(id))?.focus());

export function MenuEditor({ cafeId }: { cafeId: string }) {
  const client = useMemo(signedInClient, []);
  const [menu, setMenu] = useState<Menu>({ phase: 'loading' });
  const [editing, setEditing] = useState<Editing | null>(null);
  // Deleted, waiting for their Undo to pass: not shown, not yet deleted.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [query, setQuery] = useState('');
  // While searching every group and category holding a match is open, unless closed during that search.
  const [closedInSearch, setClosedInSearch] = useState<Record<string, boolean>>({});
  const [opened, setOpen] = useOpened(cafeId);
  const reload = async () => setMenu(await loadMenu(client, cafeId));
  useEffect(() => void reload(), [cafeId]);

  const shown = useMemo<Loaded | null>(() => {
    if (menu.phase !== 'ready') return null;
    const goneGroups = new Set(menu.groups.filter((g) => gone.has(g.id)).map((g) => g.id));
    const categories = menu.categories.filter((c) => !gone.has(c.id));
    const kept = new Set(categories.map((c) => c.id));
    return {
      groups: menu.groups.filter((g) => !goneGroups.has(g.id)),
      categories,
      items: menu.items.filter((i) => !gone.has(i.id) && kept.has(i.category_id)),
    };
  }, [menu, gone]);
  const tree = useMemo(() => (shown ? menuTree(shown.groups, shown.categories, shown.items) : []), [shown]);
  const searching = query.trim() !== '';
  const found = useMemo(() => searchTree(tree, query), [tree, query]);

  const path = { params: { path: { id: cafeId } } };
  const failed = (text: string, anchor?: Element | null) => showToast(text, { tone: 'error', anchor });
  /** Sends a change; says how it went; reads the menu again. */
  const act = async (send: () => Promise<{ error?: unknown; response: Response }>, done: string, anchor?: Element | null) => {
    try {
      const { error, response } = await send();
      if (response.ok) showToast(done, { tone: 'success', anchor });
      else failed(problemText(response.status, error), anchor);
    } catch {
      failed(UNREACHABLE, anchor);
    }
    await reload();
  };

  /** A level's new order among its siblings: shown at once, then sent; the focus stays on the moved row. */
  const reorder = (kind: Kind, next: Entry[], moving: Entry, done: string) => {
    setMenu((now) => (now.phase === 'ready' ? { ...now, [LIST_OF[kind]]: reordered(now[LIST_OF[kind]] as Entry[], next) } : now));
    if (document.activeElement?.closest(`[data-id="${moving.id}"]`)) refocus(moving.id);
    const body = orderEntries(next);
    return act(
      () =>
        kind === 'group'
          ? client.PATCH('/api/v1/cafes/{id}/groups/reorder', { ...path, body: { orders: body } })
          : kind === 'category'
            ? client.PATCH('/api/v1/cafes/{id}/categories/reorder', { ...path, body: { orders: body } })
            : client.PATCH('/api/v1/cafes/{id}/items/reorder', { ...path, body }),
      done,
      document.getElementById(menuButtonId(moving.id)),
    );
  };
  const move = (kind: Kind, list: Entry[], index: number, delta: -1 | 1) => {
    const next = moved(list, index, delta);
    const entry = list[index]!;
    if (next) void reorder(kind, next, entry, `“${entry.name}” moved ${delta < 0 ? 'up' : 'down'}.`);
  };
  const dropped = (kind: Kind, list: Entry[]) => (from: number, to: number) => {
    const next = movedTo(list, from, to);
    if (next) void reorder(kind, next, list[from]!, `“${list[from]!.name}” moved.`);
  };
  /** Alt+↑/↓ on a row (its "⋯" button or name focused) moves it. */
  const arrows = (kind: Kind, list: Entry[], index: number) => (e: KeyboardEvent) => {
    if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') || typingIn(e.target)) return;
    e.preventDefault();
    e.stopPropagation();
    move(kind, list, index, e.key === 'ArrowUp' ? -1 : 1);
  };

  const setVisible = (kind: Kind, entry: Entry, anchor: Element) => {
    const visible = !entry.visible;
    const done = `“${entry.name}” is ${visible ? 'shown on' : 'hidden from'} the menu page.`;
    const send =
      kind === 'item'
        ? () =>
            client.POST(visible ? '/api/v1/cafes/{id}/items/{itemId}/show' : '/api/v1/cafes/{id}/items/{itemId}/hide', {
              params: { path: { id: cafeId, itemId: entry.id } },
            })
        : kind === 'category'
          ? () =>
              client.PUT('/api/v1/cafes/{id}/categories/{categoryId}', {
                params: { path: { id: cafeId, categoryId: entry.id } },
                body: { visible },
              })
          : () => {
              const form = new FormData();
              form.append('visible', String(visible));
              return client.PUT('/api/v1/cafes/{id}/groups/{groupId}', {
                params: { path: { id: cafeId, groupId: entry.id } },
                body: form as never,
              });
            };
    return act(send, done, anchor).then(() => refocus(entry.id));
  };

  /** Out of sight at once, deleted when the Undo has passed (or the page is left: keepalive). */
  const remove = (kind: Kind, entry: Entry, message: string, anchor: Element) => {
    setGone((now) => new Set([...now, entry.id]));
    const restore = () =>
      setGone((now) => {
        const next = new Set(now);
        next.delete(entry.id);
        return next;
      });
    document.getElementById('menu-title')?.focus();
    deferWithUndo(message, {
      anchor,
      restore,
      commit: () => {
        const keep = { keepalive: true };
        const send =
          kind === 'item'
            ? client.DELETE('/api/v1/cafes/{id}/items/{itemId}', { params: { path: { id: cafeId, itemId: entry.id } }, ...keep })
            : kind === 'category'
              ? client.DELETE('/api/v1/cafes/{id}/categories/{categoryId}', {
                  params: { path: { id: cafeId, categoryId: entry.id } },
                  ...keep,
                })
              : client.DELETE('/api/v1/cafes/{id}/groups/{groupId}', { params: { path: { id: cafeId, groupId: entry.id } }, ...keep });
        send
          .then(({ error, response }) => {
            if (!response.ok) failed(`“${entry.name}” could not be deleted. ${problemText(response.status, error)}`);
          })
          .catch(() => failed(`“${entry.name}” could not be deleted. ${UNREACHABLE}`))
          .finally(() => void reload().then(restore));
      },
    });
  };

  /** A row's "⋯" menu: its commands, with Move up/down among its siblings. */
  const rowMenu = (kind: Kind, list: Entry[], index: number, edit: () => void, deleted: string, more: MenuAction[] = []) => {
    const entry = list[index]!;
    const actions: MenuAction[] = [
      { label: 'Edit', icon: 'edit', shortcut: 'e', run: edit },
      {
        label: entry.visible ? 'Hide' : 'Show',
        icon: entry.visible ? 'eye-off' : 'eye',
        shortcut: 'h',
        run: (anchor) => void setVisible(kind, entry, anchor),
      },
      { label: 'Move up', icon: 'arrow-up', shortcut: 'u', disabled: index === 0, run: () => move(kind, list, index, -1) },
      { label: 'Move down', icon: 'arrow-down', shortcut: 'd', disabled: index === list.length - 1, run: () => move(kind, list, index, 1) },
      ...more,
      { label: 'Delete', icon: 'trash', shortcut: 'x', danger: true, run: (anchor) => remove(kind, entry, deleted, anchor) },
    ];
    return <RowMenu label={`Actions for ${called(kind, entry.name)}`} buttonId={menuButtonId(entry.id)} actions={actions} />;
  };

  if (menu.phase !== 'ready' || !shown) {
    return menu.phase === 'error' ? (
      <p class="field-error" role="alert">
        The menu could not be loaded. {menu.message}
      </p>
    ) : (
      <Skeleton label="Loading the menu…" />
    );
  }
  const saved = (verb: string) => (name: string) => {
    setEditing(null);
    showToast(`“${name}” ${verb}.`, { tone: 'success' });
    void reload();
  };
  // A dialog may have saved part of its work before it was cancelled (a category whose image was refused).
  const cancelled = () => {
    setEditing(null);
    void reload();
  };
  const groups = tree.flatMap((t) => (t.group ? [t.group] : []));
  const allCategories = tree.flatMap((t) => t.categories.map((c) => c.category));
  const dishCount = shown.items.length;
  const hidden = <span class="badge">hidden</span>;
  const openNow = (id: string, level: 'group' | 'category') => (searching ? !closedInSearch[id] : isOpen(opened, id, level, dishCount));
  const allIds = [...groups.map((g) => g.id), ...allCategories.map((c) => c.id)];
  const anyClosed = allIds.some((id) => !isOpen(opened, id, groups.some((g) => g.id === id) ? 'group' : 'category', dishCount));
  const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

  /** A group's or category's heading: a button that opens or closes what is beneath it. */
  const disclosure = (id: string, name: string, level: 'group' | 'category', bodyId: string) => {
    const open = openNow(id, level);
    return (
      <button
        type="button"
        class="ghost menu-disclosure"
        aria-expanded={open}
        aria-controls={open ? bodyId : undefined}
        onClick={() => (searching ? setClosedInSearch({ ...closedInSearch, [id]: open }) : setOpen({ [id]: !open }))}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        {name}
      </button>
    );
  };

  const dishRow = (category: Category, items: Item[], item: Item) => {
    const i = items.indexOf(item);
    return (
      <li
        key={item.id}
        class={item.visible ? 'menu-row menu-dish' : 'menu-row menu-dish menu-hidden'}
        data-reorder={`item-${category.id}`}
        data-id={item.id}
        onKeyDown={arrows('item', items, i)}
      >
        {!searching && <DragHandle title="Drag to move" onDrop={dropped('item', items)} />}
        <button
          type="button"
          class="ghost menu-item-name menu-name"
          onClick={() => setEditing({ kind: 'item', item, categoryId: item.category_id })}
        >
          {item.name}
        </button>
        <span class="menu-badges">
          {item.image && <span class="badge">photo</span>}
          {!item.visible && hidden}
        </span>
        <span class="menu-price">{priceText(item.price, item.currency)}</span>
        {rowMenu(
          'item',
          items,
          i,
          () => setEditing({ kind: 'item', item, categoryId: item.category_id }),
          deletedText(item.name, { kind: 'item' }),
        )}
      </li>
    );
  };

  const categoryNode = (branch: TreeGroup, shownBranch: TreeCategory, siblings: Category[]) => {
    const { category } = shownBranch;
    const index = siblings.indexOf(category);
    // Dishes are moved among all of the category's, whatever a search shows.
    const all = branch.categories.find((c) => c.category.id === category.id)!.items;
    const open = openNow(category.id, 'category');
    const bodyId = `category-body-${category.id}`;
    return (
      <li
        key={category.id}
        class={category.visible ? 'menu-category' : 'menu-category menu-hidden'}
        data-reorder={`category-${branch.group?.id ?? UNGROUPED}`}
        data-id={category.id}
      >
        <div class="menu-row" onKeyDown={arrows('category', siblings, index)}>
          {!searching && <DragHandle title="Drag to move" onDrop={dropped('category', siblings)} />}
          <h4 id={`category-${category.id}`} class="menu-name">
            {disclosure(category.id, category.name, 'category', bodyId)}
          </h4>
          <span class="menu-count">{count(all.length, 'dish', 'dishes')}</span>
          {!category.visible && hidden}
          {rowMenu(
            'category',
            siblings,
            index,
            () => setEditing({ kind: 'category', category, groupId: category.group_id }),
            deletedText(category.name, { kind: 'category', items: all.length }),
            [
              {
                label: 'Add a dish',
                icon: 'plus',
                shortcut: 'a',
                run: () => setEditing({ kind: 'item', item: null, categoryId: category.id }),
              },
            ],
          )}
        </div>
        {open && (
          <div id={bodyId} class="menu-body">
            {category.description && <p class="menu-description">{category.description}</p>}
            {shownBranch.items.length === 0 ? (
              <p class="empty">No dishes yet.</p>
            ) : (
              <ol class="menu-items" aria-label={`Dishes in ${category.name}`}>
                {shownBranch.items.map((item) => dishRow(category, all, item))}
              </ol>
            )}
            {!searching && (
              <button
                type="button"
                class="ghost menu-add"
                onClick={() => setEditing({ kind: 'item', item: null, categoryId: category.id })}
              >
                <Icon name="plus" />
                Add a dish<span class="visually-hidden"> to {category.name}</span>
              </button>
            )}
          </div>
        )}
      </li>
    );
  };

  const matches = found.reduce((n, b) => n + b.categories.reduce((m, c) => m + c.items.length, 0), 0);
  return (
    <section class="menu-editor" aria-labelledby="menu-title">
      <div class="menu-head">
        <h2 id="menu-title" tabIndex={-1}>
          Menu
        </h2>
        <span class="menu-count">
          {count(dishCount, 'dish', 'dishes')} in {count(allCategories.length, 'category', 'categories')}
        </span>
      </div>
      <div class="menu-toolbar">
        <label class="menu-search">
          <Icon name="search" />
          <span class="visually-hidden">Search dishes</span>
          <input
            type="search"
            value={query}
            placeholder="Search dishes"
            aria-describedby="menu-search-result"
            onInput={(e) => {
              setQuery(e.currentTarget.value);
              setClosedInSearch({});
            }}
          />
        </label>
        {allIds.length > 0 && !searching && (
          <button type="button" onClick={() => setOpen(Object.fromEntries(allIds.map((id) => [id, anyClosed])))}>
            <Icon name={anyClosed ? 'chevron-down' : 'chevron-right'} />
            {anyClosed ? 'Open all' : 'Close all'}
          </button>
        )}
        <button type="button" onClick={() => setEditing({ kind: 'group', group: null })}>
          <Icon name="plus" />
          Add a group
        </button>
      </div>
      <p id="menu-search-result" class="menu-search-result" role="status">
        {searching &&
          (matches === 0 ? `No dish matches “${query.trim()}”.` : `${count(matches, 'dish matches', 'dishes match')} “${query.trim()}”.`)}
      </p>
      {tree.length === 0 && (
        <EmptyState icon="tools-kitchen-2" title="No groups yet">
          <p>
            Add a group (Drinks, Food…), then its categories and their dishes; or{' '}
            <a href={cafeTabHref(cafeId, 'import')}>import a whole menu</a> from a CSV file.
          </p>
        </EmptyState>
      )}
      <ol class="menu-tree" aria-label="Menu groups">
        {found.map((shownBranch) => {
          const branch = tree.find((t) => t.group === shownBranch.group)!;
          const { group } = branch;
          const id = group?.id ?? UNGROUPED;
          const index = group ? groups.indexOf(group) : -1;
          const items = branch.categories.reduce((n, c) => n + c.items.length, 0);
          const siblings = branch.categories.map((c) => c.category);
          const open = openNow(id, 'group');
          const bodyId = `group-body-${id}`;
          return (
            <li
              key={id}
              class={group && !group.visible ? 'menu-group menu-hidden' : 'menu-group'}
              data-reorder={group ? 'group' : undefined}
              data-id={id}
            >
              <div class="menu-row" onKeyDown={group ? arrows('group', groups, index) : undefined}>
                {group && !searching && <DragHandle title="Drag to move" onDrop={dropped('group', groups)} />}
                <h3 class="menu-name">{disclosure(id, group ? group.name : 'Not in a group', 'group', bodyId)}</h3>
                <span class="menu-count">{count(branch.categories.length, 'category', 'categories')}</span>
                {group && !group.visible && hidden}
                {group &&
                  rowMenu(
                    'group',
                    groups,
                    index,
                    () => setEditing({ kind: 'group', group }),
                    deletedText(group.name, { kind: 'group', categories: branch.categories.length, items }),
                    [
                      {
                        label: 'Add a category',
                        icon: 'plus',
                        shortcut: 'a',
                        run: () => setEditing({ kind: 'category', category: null, groupId: group.id }),
                      },
                    ],
                  )}
              </div>
              {open && (
                <div id={bodyId} class="menu-body">
                  {!group && (
                    <p class="hint">
                      Categories whose group was deleted; the menu page shows them after the groups. Edit one to put it in a group.
                    </p>
                  )}
                  {branch.categories.length === 0 ? (
                    <p class="empty">No categories yet.</p>
                  ) : (
                    <ol class="menu-categories" aria-label={`Categories in ${group ? group.name : 'no group'}`}>
                      {shownBranch.categories.map((c) => categoryNode(branch, c, siblings))}
                    </ol>
                  )}
                  {group && !searching && (
                    <button
                      type="button"
                      class="ghost menu-add"
                      onClick={() => setEditing({ kind: 'category', category: null, groupId: group.id })}
                    >
                      <Icon name="plus" />
                      Add a category<span class="visually-hidden"> to {group.name}</span>
                    </button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
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
          onSaved={(name) => {
            // A dish added to a closed category opens it, so the owner sees where it went.
            if (!editing.item) setOpen({ [editing.categoryId]: true });
            saved(editing.item ? 'saved' : 'added')(name);
          }}
          onCancel={cancelled}
        />
      )}
    </section>
  );
}
