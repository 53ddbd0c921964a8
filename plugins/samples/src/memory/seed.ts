// What the sample memory holds before anyone stores anything: notes about a traveller and a
// trip to Lisbon, so memory_search and memory_get (and the trip planner) have something to find.

export interface SeedNote {
  readonly key: string;
  readonly content: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export const SEED_NOTES: readonly SeedNote[] = [
  {
    key: "trip/lisbon",
    content: "Trip to Lisbon from 2026-05-14 to 2026-05-17, staying at a hotel in Baixa near Rossio.",
    metadata: { kind: "trip", city: "Lisbon" },
  },
  {
    key: "traveller/preferences",
    content: "Prefers museums and viewpoints over nightlife; likes to start the day early and walk.",
    metadata: { kind: "preference" },
  },
  {
    key: "traveller/diet",
    content: "Vegetarian; no fish or meat, eggs and cheese are fine.",
    metadata: { kind: "preference" },
  },
  {
    key: "traveller/budget",
    content: "Daily budget of about 80 euros for tickets, food and transport.",
    metadata: { kind: "budget", currency: "EUR" },
  },
  {
    key: "trip/porto-idea",
    content: "Maybe a day trip to Porto by train to see the Ribeira and the Serralves museum.",
    metadata: { kind: "idea", city: "Porto" },
  },
];
