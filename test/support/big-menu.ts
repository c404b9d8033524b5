/**
 * The largest bulk insert the api takes, for tests and benchmarks of large bodies: 5000 entries
 * with long descriptions and ingredients, about 14 MB of JSON (the route's limit is 16 MiB).
 */
export const bigMenu = () =>
  Array.from({ length: 5000 }, (_, i) => ({
    name: `Dish ${i}`,
    price: (i % 1000) / 4,
    currency: 'EUR',
    category: `Category ${i % 50}`,
    group: `Group ${i % 5}`,
    description: `A long description of dish ${i}. `.repeat(45).slice(0, 1900),
    ingredients: Array.from({ length: 12 }, (_, k) => `ingredient ${k} of dish ${i}`.padEnd(90, '.')),
  }));
