/**
 * Cafe menus made through the real api, for tests and benchmarks of the menu page: a sample
 * menu (groups, categories, items with every kind of detail, some hidden) and its profile.
 */
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '#api/prefix.js';
import { pngBytes, sendForm, textPart, type Part } from './fixtures.js';
import { expect } from 'vitest';
import { call } from './harness.js';

export interface SampleItem {
  name: string;
  price: string;
  currency?: string;
  description?: string;
  visible?: boolean;
  is_featured?: boolean;
  is_new?: boolean;
  is_recommended?: boolean;
  spice_level?: string;
  ingredients?: string[];
  tags?: string[];
  allergens?: string[];
  /** A picture of this color (each item's bytes differ). */
  image?: [number, number, number];
}

export interface SampleCategory {
  name: string;
  description?: string;
  visible?: boolean;
  items: SampleItem[];
}

export interface SampleGroup {
  name: string;
  visible?: boolean;
  categories: SampleCategory[];
}

/** The ids the api gave, by name. */
export interface MadeMenu {
  groups: Map<string, string>;
  categories: Map<string, string>;
  items: Map<string, string>;
}

function ok<T>(res: { statusCode: number; body: string; json(): { data: T } }): T {
  if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body}`);
  return res.json().data;
}

/** A cafe's API path, or one of its sub-resources (`/items`, `/theme`…). */
export const cafeUrl = (cafeId: string, path = '') => `${API_PREFIX}/cafes/${cafeId}${path}`;

/** The answer was a 200; its body says why when it was not. */
export function expectOk(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(200);
}

export async function createCafe(
  app: FastifyInstance,
  key: string,
  name: string,
): Promise<{ id: string; link: { id: string; dynamic_link_id: string } }> {
  return ok(await call(app, key, 'POST', `${API_PREFIX}/cafes`, { name }));
}

let pictureSeed = 0;

export function itemParts(categoryId: string, item: SampleItem): Part[] {
  const parts: Part[] = [textPart('category_id', categoryId), textPart('name', item.name), textPart('price', item.price)];
  if (item.currency) parts.push(textPart('currency', item.currency));
  if (item.description) parts.push(textPart('description', item.description));
  for (const flag of ['visible', 'is_featured', 'is_new', 'is_recommended'] as const) {
    if (item[flag] !== undefined) parts.push(textPart(flag, String(item[flag])));
  }
  if (item.spice_level) parts.push(textPart('spice_level', item.spice_level));
  for (const list of ['ingredients', 'tags', 'allergens'] as const) for (const entry of item[list] ?? []) parts.push(textPart(list, entry));
  if (item.image) {
    pictureSeed++;
    parts.push({
      name: 'image',
      data: pngBytes(120 + (pictureSeed % 7), 90, item.image),
      filename: `${item.name}.png`,
      contentType: 'image/png',
    });
  }
  return parts;
}

/** Makes the groups, categories and items in the order given (and so in menu order). */
export async function createMenu(app: FastifyInstance, key: string, cafeId: string, groups: SampleGroup[]): Promise<MadeMenu> {
  const made: MadeMenu = { groups: new Map(), categories: new Map(), items: new Map() };
  const base = `${API_PREFIX}/cafes/${cafeId}`;
  for (const group of groups) {
    const groupParts = [textPart('name', group.name), ...(group.visible === false ? [textPart('visible', 'false')] : [])];
    const { id: groupId } = ok<{ id: string }>(await sendForm(app, key, 'POST', `${base}/groups`, groupParts));
    made.groups.set(group.name, groupId);
    for (const category of group.categories) {
      const body = {
        name: category.name,
        group_id: groupId,
        ...(category.description ? { description: category.description } : {}),
        ...(category.visible === false ? { visible: false } : {}),
      };
      const { id: categoryId } = ok<{ id: string }>(await call(app, key, 'POST', `${base}/categories`, body));
      made.categories.set(category.name, categoryId);
      for (const item of category.items) {
        const { id } = ok<{ id: string }>(await sendForm(app, key, 'POST', `${base}/items`, itemParts(categoryId, item)));
        made.items.set(item.name, id);
      }
    }
  }
  return made;
}

/** A café's menu with every kind of detail a page shows; "(hidden)" in a name marks what guests must not see. */
export const SAMPLE_MENU: SampleGroup[] = [
  {
    name: 'Breakfast',
    categories: [
      {
        name: 'Pastries',
        description: 'Baked every morning in our kitchen.',
        items: [
          {
            name: 'Pastel de nata',
            price: '1.6',
            currency: 'EUR',
            description: 'Custard tart with a crisp, flaky crust.',
            is_featured: true,
            tags: ['vegetarian'],
            allergens: ['gluten', 'milk', 'egg'],
            ingredients: ['puff pastry', 'custard', 'cinnamon'],
            image: [236, 178, 84],
          },
          {
            name: 'Almond croissant',
            price: '2.8',
            currency: 'EUR',
            is_new: true,
            tags: ['vegetarian'],
            allergens: ['gluten', 'nuts', 'milk'],
            image: [210, 150, 90],
          },
          { name: 'Day-old bun (hidden)', price: '0.5', currency: 'EUR', visible: false },
        ],
      },
      {
        name: 'Bowls',
        items: [
          {
            name: 'Açaí bowl',
            price: '7.5',
            currency: 'EUR',
            description: 'Açaí, banana, granola and seasonal fruit.',
            is_recommended: true,
            tags: ['vegan', 'gluten-free'],
            allergens: [],
            ingredients: ['açaí', 'banana', 'granola'],
            image: [110, 40, 120],
          },
          {
            name: 'Shakshuka',
            price: '9',
            currency: 'EUR',
            description: 'Eggs poached in spiced tomato and pepper sauce.',
            spice_level: 'medium',
            tags: ['vegetarian', 'gluten-free'],
            allergens: ['egg'],
            image: [200, 60, 40],
          },
        ],
      },
    ],
  },
  {
    name: 'Lunch',
    categories: [
      {
        name: 'Mains',
        items: [
          {
            name: 'Piri-piri chicken',
            price: '13.9',
            currency: 'EUR',
            description: 'Charcoal-grilled half chicken, fries and salad.',
            spice_level: 'hot',
            is_featured: true,
            allergens: [],
            image: [180, 90, 30],
          },
          {
            name: 'Bacalhau à Brás',
            price: '14.5',
            currency: 'EUR',
            description: 'Salt cod, shoestring potatoes, egg and olives.',
            allergens: ['fish', 'egg'],
            tags: ['house classic'],
            image: [230, 210, 150],
          },
          {
            name: 'Green curry',
            price: '12',
            currency: 'EUR',
            spice_level: 'extra_hot',
            tags: ['vegan'],
            allergens: ['soy'],
            image: [90, 150, 70],
          },
        ],
      },
      { name: 'Secret specials (hidden)', visible: false, items: [{ name: 'Hidden category dish', price: '99', currency: 'EUR' }] },
    ],
  },
  {
    name: 'Drinks',
    categories: [
      {
        name: 'Coffee',
        items: [
          { name: 'Espresso', price: '1.2', currency: 'EUR', tags: ['vegan'] },
          { name: 'Flat white', price: '3.2', currency: 'EUR', allergens: ['milk'], tags: ['vegetarian'] },
          { name: 'Matcha latte', price: '4.1', currency: 'EUR', is_new: true, allergens: ['milk'] },
        ],
      },
    ],
  },
  {
    name: 'Staff meals (hidden)',
    visible: false,
    categories: [{ name: 'Staff', items: [{ name: 'Hidden group dish', price: '1', currency: 'EUR' }] }],
  },
];

/** Profile, hours and links of the sample café. */
export const SAMPLE_PROFILE = {
  title: 'Café Lisboa',
  subtitle: 'Coffee, pastries and lunch since 1998',
  address: 'Rua Augusta 27, 1100-048 Lisboa',
  phone: '+351 21 000 0000',
  email: 'ola@cafe-lisboa.example',
  website: 'https://cafe-lisboa.example',
};
