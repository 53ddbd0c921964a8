// get_attractions: a city's attractions from data/attractions.json, best rated first,
// optionally of one category and within a price.

import { readData } from "../data.js";
import { notFound } from "../errors.js";
import type { ToolHandler } from "./handler.js";

interface Attraction {
  readonly name: string;
  readonly category: string;
  readonly area: string;
  readonly description: string;
  readonly price_eur: number;
  readonly rating: number;
}

interface Attractions {
  readonly cities: Readonly<
    Record<string, { readonly name: string; readonly attractions: readonly Attraction[] }>
  >;
}

export const lookup: ToolHandler<{
  city: string;
  category?: string;
  max_price_eur?: number;
  limit?: number;
}> = async (args) => {
  const { cities } = await readData<Attractions>("attractions.json");
  const city = cities[args.city.trim().toLowerCase()];
  if (city === undefined) {
    const known = Object.values(cities).map((entry) => entry.name);
    throw notFound(
      "city",
      args.city,
      `city: no attractions for '${args.city}'; the samples have ${known.join(", ")}`,
    );
  }
  const found = city.attractions
    .filter((entry) => args.category === undefined || entry.category === args.category)
    .filter((entry) => args.max_price_eur === undefined || entry.price_eur <= args.max_price_eur)
    .sort((a, b) => b.rating - a.rating || (a.name < b.name ? -1 : 1));
  return { city: city.name, count: found.length, attractions: found.slice(0, args.limit ?? 5) };
};
