// The day's cost, for the side view's last line: the sums of the `details.cost` the binary
// reports with each result (requests, prompt and completion tokens, media calls), per calendar
// day, kept in the plugin's data so a restart of Obsidian keeps the day's total. The binary
// measures; this only adds up what it said.

/** What paid calls used, as the binary reports it in `details.cost`. */
export interface Usage {
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  media_calls: number;
}

export const NO_USAGE: Usage = { requests: 0, prompt_tokens: 0, completion_tokens: 0, media_calls: 0 };

/** The usage in a result's details, or nothing when the call paid for none. */
export function usageOf(details: Record<string, unknown>): Usage {
  const cost = details.cost as Partial<Usage> | undefined;
  if (!cost || typeof cost !== "object") return { ...NO_USAGE };
  const n = (value: unknown) => (typeof value === "number" ? value : 0);
  return {
    requests: n(cost.requests),
    prompt_tokens: n(cost.prompt_tokens),
    completion_tokens: n(cost.completion_tokens),
    media_calls: n(cost.media_calls),
  };
}

export function thousands(n: number): string {
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function counted(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/** `3 requests, 1,234 prompt + 210 completion tokens, 1 media call`, as the CLI's closing line says it. */
export function describeUsage(usage: Usage): string {
  return (
    `${counted(usage.requests, "request")}, ${thousands(usage.prompt_tokens)} prompt + ` +
    `${thousands(usage.completion_tokens)} completion tokens, ${counted(usage.media_calls, "media call")}`
  );
}

/** The local calendar day, `YYYY-MM-DD`. */
export function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The running total of one day. */
export interface DayCost {
  day: string;
  usage: Usage;
}

/** The day's total after adding `usage` at `now`: a new day starts from zero. */
export function recordUsage(previous: DayCost | undefined, usage: Usage, now: Date): DayCost {
  const day = dayOf(now);
  const base = previous && previous.day === day ? previous.usage : NO_USAGE;
  const sum = { ...base };
  for (const key of Object.keys(sum) as (keyof Usage)[]) sum[key] += usage[key];
  return { day, usage: sum };
}

/** The day's total as of `now` (zero when the record is of another day). */
export function todaysUsage(record: DayCost | undefined, now: Date): Usage {
  return record && record.day === dayOf(now) ? record.usage : { ...NO_USAGE };
}
