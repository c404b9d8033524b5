/** The menu editor's pure parts: the tree from the API's flat lists, the forms ↔ their bodies, errors at their fields, what a delete says. */
import { describe, expect, it } from 'vitest';
import {
  allergensOf,
  categoryBody,
  categoryDraftOf,
  deletedText,
  isOpen,
  groupFormData,
  itemDraftOf,
  itemErrorsAt,
  itemFormData,
  listEntries,
  menuTree,
  OPEN_CATEGORIES_MAX_DISHES,
  reordered,
  searchTree,
  tagsOf,
  type Category,
  type Group,
  type Item,
} from '#console/src/cafes/menu.js';

const stamp = { created_at: '2026-11-26T10:00:00.000Z', updated_at: '2026-11-26T10:00:00.000Z', cafe_id: 'cafe' };
const group = (id: string, name: string): Group => ({ ...stamp, id, name, visible: true, order: 0, image: null });
const category = (id: string, groupId: string | null): Category => ({
  ...stamp,
  id,
  group_id: groupId,
  name: id,
  description: null,
  type: null,
  order: 0,
  visible: true,
  image: null,
});
const item = (id: string, categoryId: string, change: Partial<Item> = {}): Item => ({
  ...stamp,
  id,
  category_id: categoryId,
  name: id,
  price: 2.5,
  currency: 'EUR',
  description: null,
  visible: true,
  is_featured: false,
  is_new: false,
  is_recommended: false,
  spice_level: 'none',
  ingredients: [],
  tags: [],
  allergens: [],
  image: null,
  order: 0,
  ...change,
});

describe('the menu tree', () => {
  it('puts categories under their groups and items under their categories, in the order listed', () => {
    const tree = menuTree(
      [group('g1', 'Drinks'), group('g2', 'Food')],
      [category('tea', 'g1'), category('cake', 'g2'), category('coffee', 'g1')],
      [item('i2', 'coffee'), item('i1', 'tea'), item('i3', 'coffee')],
    );
    expect(tree.map((g) => [g.group!.id, g.categories.map((c) => [c.category.id, c.items.map((i) => i.id)])])).toEqual([
      [
        'g1',
        [
          ['tea', ['i1']],
          ['coffee', ['i2', 'i3']],
        ],
      ],
      ['g2', [['cake', []]]],
    ]);
  });

  it('shows the categories of a deleted group after the groups, as the guest page does; none when there are none', () => {
    const tree = menuTree([group('g1', 'Drinks')], [category('loose', null), category('tea', 'g1'), category('orphan', 'gone')], []);
    expect(tree.map((g) => [g.group?.id ?? null, g.categories.map((c) => c.category.id)])).toEqual([
      ['g1', ['tea']],
      [null, ['loose', 'orphan']],
    ]);
    expect(menuTree([group('g1', 'Drinks')], [], []).map((g) => g.group?.id)).toEqual(['g1']);
  });
});

describe('the dish form', () => {
  it('starts a new dish empty, shown, not spicy, in its category and currency', () => {
    expect(itemDraftOf({ categoryId: 'c1', currency: 'USD' })).toMatchObject({
      categoryId: 'c1',
      currency: 'USD',
      name: '',
      price: '',
      diets: [],
      allergens: [],
      spiceLevel: 'none',
      visible: true,
    });
  });

  it('reads a stored dish: known dietary tags and allergens as choices (any case or spelling), the rest as text', () => {
    expect(itemDraftOf(item('i2', 'c1', { price: 2.125 })).price).toBe('2.125');
    expect(itemDraftOf(item('i3', 'c1', { price: 4 })).price).toBe('4.00');
    const draft = itemDraftOf(
      item('i1', 'c1', {
        price: 3.1,
        tags: ['gluten free', 'House special', 'VEGAN'],
        allergens: ['milk', 'Oat'],
        ingredients: ['coffee', 'milk'],
        description: 'Smooth',
      }),
    );
    expect(draft).toMatchObject({
      price: '3.10',
      diets: ['gluten-free', 'vegan'],
      otherTags: 'House special',
      allergens: ['Milk'],
      otherAllergens: 'Oat',
      ingredients: 'coffee\nmilk',
      description: 'Smooth',
    });
  });

  it('sends every field as the items endpoint takes them: lists as JSON arrays, flags as true/false, a comma price read as a point', () => {
    const draft = {
      ...itemDraftOf({ categoryId: 'c1', currency: 'eur' }),
      name: ' Flat white ',
      price: '3,10',
      diets: ['vegetarian'],
      otherTags: 'seasonal, Vegetarian',
      allergens: ['Milk'],
      otherAllergens: 'oat, milk',
      ingredients: 'coffee\nmilk, coffee',
      isNew: true,
      spiceLevel: 'mild' as const,
    };
    const checked = itemFormData(draft);
    expect('form' in checked && Object.fromEntries(checked.form)).toEqual({
      category_id: 'c1',
      name: 'Flat white',
      price: '3.10',
      currency: 'EUR',
      description: '',
      spice_level: 'mild',
      is_featured: 'false',
      is_new: 'true',
      is_recommended: 'false',
      visible: 'true',
      ingredients: '["coffee","milk"]',
      tags: '["Vegetarian","seasonal"]',
      allergens: '["Milk","oat"]',
    });
  });

  it('sends a chosen photo, or asks to remove the stored one', () => {
    const photo = new File([new Uint8Array([1, 2, 3])], 'p.png', { type: 'image/png' });
    const base = { ...itemDraftOf({ categoryId: 'c1', currency: 'EUR' }), name: 'Tea', price: '2' };
    const withPhoto = itemFormData({ ...base, image: photo, deleteImage: true });
    expect('form' in withPhoto && [withPhoto.form.get('image') instanceof File, withPhoto.form.has('delete_image')]).toEqual([true, false]);
    const removed = itemFormData({ ...base, deleteImage: true });
    expect('form' in removed && removed.form.get('delete_image')).toBe('true');
  });

  it('refuses what the API would, at each field, before any request', () => {
    expect(itemFormData({ ...itemDraftOf({ categoryId: 'c', currency: 'euro' }), name: ' ', price: '1.2345' })).toEqual({
      errors: {
        name: 'Give the dish a name.',
        price: 'A price such as 4.50 (up to 3 decimals).',
        currency: 'A three-letter currency code such as EUR.',
      },
    });
  });

  it("puts the API's errors at the form's fields: a list entry at its list", () => {
    expect(
      itemErrorsAt({
        'tags.3': 'Must be at most 100 characters',
        'allergens.0': 'Required',
        currency: 'Must be an ISO 4217 currency code such as USD',
        category_id: 'Category not found in this cafe',
        'ingredients.1': 'a',
        'ingredients.2': 'b',
      }),
    ).toEqual({
      otherTags: 'Must be at most 100 characters',
      otherAllergens: 'Required',
      currency: 'Must be an ISO 4217 currency code such as USD',
      categoryId: 'Category not found in this cafe',
      ingredients: 'a',
    });
  });

  it('lists entries once, trimmed, by line or comma', () => {
    expect(listEntries(' a, b\n\nA ,c,')).toEqual(['a', 'b', 'c']);
    expect(tagsOf({ diets: ['nut-free'], otherTags: 'nut free' })).toEqual(['Nut-free']);
    expect(allergensOf({ allergens: [], otherAllergens: '' })).toEqual([]);
  });
});

describe('groups and categories', () => {
  it("sends a group's form, and refuses a blank name", () => {
    const checked = groupFormData({ name: ' Drinks ', visible: false, image: null, deleteImage: true });
    expect('form' in checked && Object.fromEntries(checked.form)).toEqual({ name: 'Drinks', visible: 'false', delete_image: 'true' });
    expect(groupFormData({ name: '  ', visible: true, image: null, deleteImage: false })).toEqual({
      errors: { name: expect.stringContaining('Give the group a name') },
    });
  });

  it("sends a category's body: its group (none as null), and removing the image only on an edit", () => {
    const draft = { ...categoryDraftOf(null, 'g1'), name: ' Coffee ', description: ' Roasted ' };
    expect(categoryBody(draft, false)).toEqual({ body: { name: 'Coffee', description: 'Roasted', group_id: 'g1', visible: true } });
    expect(categoryBody({ ...draft, groupId: '', deleteImage: true }, true)).toEqual({
      body: { name: 'Coffee', description: 'Roasted', group_id: null, visible: true, delete_image: true },
    });
    expect(categoryDraftOf(category('c1', null), 'g1').groupId).toBe('');
    expect(categoryBody({ ...draft, name: '' }, true)).toEqual({ errors: { name: expect.stringContaining('Give the category a name') } });
  });
});

describe('what a delete says', () => {
  it('names what went with it, or where what stays went', () => {
    expect(deletedText('Espresso', { kind: 'item' })).toBe('“Espresso” deleted.');
    expect(deletedText('Tea', { kind: 'category', items: 0 })).toBe('“Tea” deleted.');
    expect(deletedText('Tea', { kind: 'category', items: 1 })).toBe('“Tea” deleted, with its 1 dish.');
    expect(deletedText('Coffee', { kind: 'category', items: 3 })).toBe('“Coffee” deleted, with its 3 dishes.');
    expect(deletedText('Drinks', { kind: 'group', categories: 1, items: 1 })).toBe(
      '“Drinks” deleted: its 1 category (1 dish) stays on the menu page, under “Not in a group”.',
    );
    expect(deletedText('Food', { kind: 'group', categories: 2, items: 5 })).toContain('its 2 categories (5 dishes) stay on the menu page');
    expect(deletedText('Empty', { kind: 'group', categories: 0, items: 0 })).toBe('“Empty” deleted.');
  });
});

describe('a big menu on a small screen', () => {
  it('shows a reorder at once: the moved entries in their new order, in the places they held', () => {
    const all = [item('a', 'c1'), item('x', 'c2'), item('b', 'c1'), item('c', 'c1')];
    expect(reordered(all, [item('c', 'c1'), item('a', 'c1'), item('b', 'c1')]).map((i) => i.id)).toEqual(['c', 'x', 'a', 'b']);
    expect(reordered(all, []).map((i) => i.id)).toEqual(['a', 'x', 'b', 'c']);
  });

  it('finds dishes by name or description, ignoring case and accents, keeping only the categories and groups that hold them', () => {
    const tree = menuTree(
      [group('g1', 'Drinks'), group('g2', 'Food')],
      [category('coffee', 'g1'), category('tea', 'g1'), category('cake', 'g2')],
      [
        item('Galão', 'coffee'),
        item('Espresso', 'coffee', { description: 'Short and strong' }),
        item('Green tea', 'tea'),
        item('Pastel de nata', 'cake', { description: 'Custard tart, best with a galao' }),
      ],
    );
    const found = searchTree(tree, '  GALAO ');
    expect(found.map((b) => [b.group?.name, b.categories.map((c) => [c.category.id, c.items.map((i) => i.id)])])).toEqual([
      ['Drinks', [['coffee', ['Galão']]]],
      ['Food', [['cake', ['Pastel de nata']]]],
    ]);
    expect(searchTree(tree, 'strong')[0]!.categories[0]!.items.map((i) => i.id)).toEqual(['Espresso']);
    expect(searchTree(tree, 'nothing like it')).toEqual([]);
    expect(searchTree(tree, ' ')).toEqual(tree);
  });

  it('opens groups, and categories only while the menu is small, unless the owner chose otherwise', () => {
    expect(isOpen({}, 'g', 'group', 500)).toBe(true);
    expect(isOpen({}, 'c', 'category', OPEN_CATEGORIES_MAX_DISHES)).toBe(true);
    expect(isOpen({}, 'c', 'category', OPEN_CATEGORIES_MAX_DISHES + 1)).toBe(false);
    expect(isOpen({ c: true }, 'c', 'category', 200)).toBe(true);
    expect(isOpen({ g: false }, 'g', 'group', 3)).toBe(false);
  });
});
