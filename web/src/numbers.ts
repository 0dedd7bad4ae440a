// Every number a person reads counts from 1, as the line prompt and the terminal app count (the server's
// command layer, rummykit.engine.commands, is the one place that says so); records, JSON and data-* attributes
// keep the notation's numbers, counted from 0.

/** The number a person sees for position 0. */
export const SHOWN_FROM = 1;

/** A position (a seat, a column, a grid row or column...) as a person reads it. */
export function shown(position: number): number {
  return position + SHOWN_FROM;
}
